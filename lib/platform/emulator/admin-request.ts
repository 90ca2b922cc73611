import { EmuRequest, EmuResponse, json } from '../../core/emulator-kit/types';
import { OrganizationRecord, PlatformState } from './state';

/** What the administrator routes (admin.ts, admin-seed.ts) work on. */
export interface AdminContext {
  readonly state: PlatformState;
}

/** The JSON object of an administrator request; {} when absent or not an object. */
export function body(req: EmuRequest): Record<string, any> {
  try {
    const b = req.body.length ? JSON.parse(req.body.toString('utf8')) : {};
    return typeof b === 'object' && b !== null ? b : {};
  } catch {
    return {};
  }
}

export function findUser(state: PlatformState, ref: unknown): PlatformState['users'][string] | undefined {
  return Object.values(state.users).find((u) => u.id === ref || u.username === ref);
}

/** An administrator error: plain JSON `{ errors: [message] }`. */
export function fail(status: number, message: string): EmuResponse {
  return json(status, { errors: [message] });
}

export function orgNamed(state: PlatformState, name: string): OrganizationRecord | undefined {
  return Object.values(state.organizations).find((o) => o.name === name);
}
