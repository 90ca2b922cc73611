import { Clock, SYSTEM_CLOCK } from '../../core/clock';
import { durationSeconds } from '../../core/constructs/validation';

/** The last time told per clock, so that each clock's nanoseconds only go up. */
const lastNanos = new WeakMap<Clock, bigint>();

/**
 * Now on `clock`, as nanoseconds since the epoch; strictly increasing per clock so two writes never
 * share a timestamp. The system clock's sub-millisecond part comes from the high-resolution timer;
 * another clock's time is its whole milliseconds (a test clock's times are exact).
 */
export function nowNanos(clock: Clock = SYSTEM_CLOCK): bigint {
  const ms = BigInt(clock.now());
  const sub = clock === SYSTEM_CLOCK ? process.hrtime.bigint() % 1_000_000n : 0n;
  let n = ms * 1_000_000n + sub;
  const last = lastNanos.get(clock) ?? 0n;
  if (n <= last) n = last + 1n;
  lastNanos.set(clock, n);
  return n;
}

/** RFC 3339 with nanoseconds and `Z`, like the real service: `2018-03-22T02:24:06.945319214Z`. */
export function rfc3339Nano(nanos: bigint): string {
  const ms = Number(nanos / 1_000_000n);
  const iso = new Date(ms).toISOString(); // 2018-03-22T02:24:06.945Z
  const frac = (nanos % 1_000_000_000n).toString().padStart(9, '0');
  return `${iso.slice(0, 19)}.${frac}Z`;
}

/** Nanoseconds since the epoch of an RFC 3339 timestamp written by `rfc3339Nano`. */
export function parseRfc3339Nano(s: string): bigint {
  const m = /^(.{19})\.(\d{1,9})Z$/.exec(s);
  if (!m) return BigInt(Date.parse(s)) * 1_000_000n;
  const secs = BigInt(Date.parse(`${m[1]}Z`)) / 1000n;
  return secs * 1_000_000_000n + BigInt(m[2].padEnd(9, '0'));
}

/**
 * Parses a duration parameter (integer seconds or a string such as `1h30m`, `90s`) into whole
 * seconds; undefined when invalid. Negative values are refused.
 */
export function parseDurationParam(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isInteger(v) && v >= 0 ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const s = durationSeconds(v.trim());
  return Number.isNaN(s) ? undefined : Math.floor(s);
}

/** Formats seconds as Go's `time.Duration.String()` does: `0s`, `1h0m0s`, `3h25m19s`, `1m30s`. */
export function goDuration(seconds: number): string {
  if (seconds === 0) return '0s';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}
