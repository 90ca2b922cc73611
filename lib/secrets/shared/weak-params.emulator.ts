import { RequestError } from '../emulator/responses';
import { parseDurationParam } from '../emulator/time';

/** Parameter decoding shared by the database and directory engines (weak decoding, as the real service). */

export function str(body: Record<string, unknown>, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new RequestError(400, `${key}: expected a string`);
}

export function bool(body: Record<string, unknown>, key: string): boolean | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === '1' || v === 1) return true;
  if (v === 'false' || v === '0' || v === 0) return false;
  throw new RequestError(400, `${key}: expected a boolean`);
}

/** A list given as a JSON list or a comma-separated string. */
export function list(body: Record<string, unknown>, key: string): string[] | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  throw new RequestError(400, `${key}: expected a list of strings`);
}

/** A duration given as integer seconds or a string with a unit; whole seconds. */
export function duration(body: Record<string, unknown>, key: string): number | undefined {
  const v = body[key];
  if (v === undefined || v === null || v === '') return undefined;
  const s = parseDurationParam(v);
  if (s === undefined) throw new RequestError(400, `${key}: invalid duration "${String(v)}"`);
  return s;
}

export function stringMap(body: Record<string, unknown>, key: string): Record<string, string> | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw new RequestError(400, `${key}: expected a map of strings`);
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = String(x);
  return out;
}
