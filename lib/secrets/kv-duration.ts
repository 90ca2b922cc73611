import { durationSeconds } from '../core/constructs/validation';

/**
 * The duration to show as observed: the spec's own form when it means the same number of
 * seconds as the API's answer (`"1h"` vs `"1h0m0s"` vs `"3600s"`), else the API's answer.
 */
export function observedDuration(api: string, desired: unknown): string {
  if (typeof desired === 'string' || typeof desired === 'number') {
    const a = durationSeconds(api);
    const d = durationSeconds(desired as string | number);
    if (!Number.isNaN(a) && a === d) return String(desired);
  }
  return api;
}
