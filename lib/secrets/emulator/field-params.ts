import { RequestError } from './responses';
import { parseDurationParam } from './time';

/**
 * Weakly typed request parameters, decoded as the real service's field schema does: a boolean
 * from `true`/`false` or a string of them, an integer from a number or a numeric string, a
 * list from a JSON array or a comma-separated string. A value of the wrong type is a 400.
 */
export function boolParam(body: Record<string, unknown>, name: string, dflt: boolean): boolean {
  const v = body[name];
  if (v === undefined || v === null) return dflt;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === '1' || v === 1) return true;
  if (v === 'false' || v === '0' || v === 0 || v === '') return false;
  throw new RequestError(400, `error converting input for field "${name}": cannot parse '${String(v)}' as bool`);
}

export function intParam(body: Record<string, unknown>, name: string, dflt: number): number {
  const v = body[name];
  if (v === undefined || v === null || v === '') return dflt;
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^[+-]?\d+$/.test(v.trim())) return Number(v.trim());
  throw new RequestError(400, `error converting input for field "${name}": cannot parse '${String(v)}' as int`);
}

export function stringParam(body: Record<string, unknown>, name: string, dflt = ''): string {
  const v = body[name];
  if (v === undefined || v === null) return dflt;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new RequestError(400, `error converting input for field "${name}": expected a string`);
}

/** A list: a JSON array of strings, or a comma-separated string (blank items dropped). */
export function listParam(body: Record<string, unknown>, name: string): string[] | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) return v.map((x) => String(x).trim()).filter((x) => x !== '');
  if (typeof v === 'string') return v.split(',').map((x) => x.trim()).filter((x) => x !== '');
  throw new RequestError(400, `error converting input for field "${name}": expected a list or a comma-separated string`);
}

/** A duration in whole seconds (integer seconds or a string such as `1h30m`); `dflt` when absent. */
export function durationParam(body: Record<string, unknown>, name: string, dflt: number): number {
  const v = body[name];
  if (v === undefined || v === null || v === '') return dflt;
  const s = parseDurationParam(v);
  if (s === undefined) throw new RequestError(400, `error converting input for field "${name}": invalid duration "${String(v)}"`);
  return s;
}
