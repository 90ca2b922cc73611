import * as fs from 'fs';
import { Construct } from 'constructs';

/**
 * Set by `converge validate` for the app it runs (and by nothing else): a file that receives each
 * invalid prop as one JSON line (`{"path","field","rule"}`) instead of the constructor throwing, so
 * that one run reports every mistake of the app. The synthesis still fails (see `reject`).
 */
export const VALIDATION_REPORT_VARIABLE = 'CONVERGE_VALIDATION_REPORT';

/** A prop that breaks a rule: names the construct path, the field and the rule. */
export class ValidationError extends Error {
  constructor(scope: Construct, field: string, rule: string) {
    super(`${scope.node.path}: ${field} ${rule}`);
    this.name = 'ValidationError';
  }
}

/**
 * Refuses a prop: throws a ValidationError, as `cdktf synth` users meet it. Under `converge validate`
 * (VALIDATION_REPORT_VARIABLE) it is recorded and the constructor goes on, so that the next mistakes
 * are found too; the construct then carries the error as a node validation, which cdktf runs before
 * it writes a stack, so nothing invalid is ever synthesized.
 */
export function reject(scope: Construct, field: string, rule: string): void {
  const error = new ValidationError(scope, field, rule);
  const report = process.env[VALIDATION_REPORT_VARIABLE];
  if (!report) throw error;
  fs.appendFileSync(report, JSON.stringify({ path: scope.node.path, field, rule }) + '\n');
  scope.node.addValidation({ validate: () => [error.message] });
}

/** Refuses the prop (`reject`) unless `ok`. */
export function check(ok: boolean, scope: Construct, field: string, rule: string): void {
  if (!ok) reject(scope, field, rule);
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
