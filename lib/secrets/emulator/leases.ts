import { randomBytes } from 'crypto';
import { EmuResponse } from '../../core/emulator-kit/types';
import { envelope } from './responses';

/** The service's default lease TTL (and max TTL) when a role sets none: 768h. */
export const DEFAULT_LEASE_TTL = 768 * 3600;

/** A response carrying a renewable lease `<mount>/creds/<role>/<id>`. */
export function leased(data: unknown, mount: string, role: string, ttlSeconds: number): EmuResponse {
  const res = envelope(data);
  const id = randomBytes(12).toString('base64url');
  return { ...res, body: { ...(res.body as object), lease_id: `${mount}/creds/${role}/${id}`, lease_duration: ttlSeconds, renewable: true } };
}
