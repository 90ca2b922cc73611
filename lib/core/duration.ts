import { durationSeconds } from './constructs/validation';

/**
 * A duration in converge's one canonical form, so that what an app writes and what an API
 * answers compare equal without either knowing the other: `"1h"`, `"60m"`, `"3600"`, `3600`
 * (seconds) and the secrets service's `"1h0m0s"` all read `"1h"`. Units run from hours down and
 * zero units are left out (`"1h30m"`, `"1m30s"`, `"768h"`, `"0s"`); under a second as Go writes it
 * (`"500ms"`). Constructs render durations through it and handlers read them through it.
 * A value that is not a duration (or null/undefined) is returned unchanged, for validation to refuse.
 */
export function normalDuration(v: unknown): unknown {
  if (typeof v !== 'string' && typeof v !== 'number') return v;
  const seconds = durationSeconds(v);
  return Number.isNaN(seconds) ? v : formatSeconds(seconds);
}

/** {@link normalDuration} for a value known to be a duration. */
export function normalDurationString(v: string | number): string {
  return String(normalDuration(v));
}

/** Seconds (whole or not) in the canonical form. */
export function formatSeconds(seconds: number): string {
  const whole = Math.floor(seconds);
  const nanos = Math.round((seconds - whole) * 1e9);
  if (whole === 0) {
    if (nanos === 0) return '0s';
    if (nanos < 1e3) return `${nanos}ns`;
    if (nanos < 1e6) return `${nanos / 1e3}µs`;
    return `${nanos / 1e6}ms`;
  }
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const frac = nanos ? `.${String(nanos).padStart(9, '0').replace(/0+$/, '')}` : '';
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s || frac ? `${s}${frac}s` : ''}`;
}
