'use strict';
/** The benchmark's mix of kinds: 2 % platform (rate-limited at 30/s), 18 % mesh, 80 % secrets. */
exports.mix = (n) => {
  const platform = Math.max(1, Math.round(n * 0.02));
  const mesh = Math.round(n * 0.18);
  return { platform, mesh, secrets: n - platform - mesh };
};
