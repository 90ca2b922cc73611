import { Construct } from 'constructs';

/** A prop that breaks a rule: names the construct path, the field and the rule. */
export class ValidationError extends Error {
  constructor(scope: Construct, field: string, rule: string) {
    super(`${scope.node.path}: ${field} ${rule}`);
    this.name = 'ValidationError';
  }
}

/** Throws a ValidationError unless `ok`. */
export function check(ok: boolean, scope: Construct, field: string, rule: string): void {
  if (!ok) throw new ValidationError(scope, field, rule);
}

/** Checks that `value` is one of `allowed`. */
export function checkOneOf(scope: Construct, field: string, value: string | undefined, allowed: readonly string[]): void {
  if (value === undefined) return;
  check(allowed.includes(value), scope, field, `"${value}" must be one of ${allowed.map((a) => `"${a}"`).join(', ')}`);
}

/** Checks an integer in a range. */
export function checkInt(scope: Construct, field: string, value: number | undefined, min: number, max = Number.MAX_SAFE_INTEGER): void {
  if (value === undefined) return;
  check(Number.isInteger(value) && value >= min && value <= max, scope, field,
    `must be an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`} (got ${value})`);
}

/** Parses a duration (`90s`, `1h30m`, `500ms`, or a number of seconds) into seconds; NaN when invalid. */
export function durationSeconds(v: string | number): number {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? v : NaN;
  if (/^\d+$/.test(v)) return Number(v);
  const re = /(\d+(?:\.\d+)?)(ms|us|µs|ns|h|m|s|d)/gy;
  let total = 0;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(v)) !== null) {
    const n = Number(m[1]);
    const unit = { ns: 1e-9, us: 1e-6, 'µs': 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600, d: 86400 }[m[2]]!;
    total += n * unit;
    consumed = re.lastIndex;
  }
  return v.length > 0 && consumed === v.length ? total : NaN;
}

/** Checks a duration string or number of seconds. */
export function checkDuration(scope: Construct, field: string, value: string | number | undefined, minSeconds = 0): number | undefined {
  if (value === undefined) return undefined;
  const s = durationSeconds(value);
  check(!Number.isNaN(s), scope, field, `"${value}" is not a duration (use e.g. "30s", "1h30m" or a number of seconds)`);
  check(s >= minSeconds, scope, field, `must be at least ${minSeconds} seconds (got "${value}")`);
  return s;
}
