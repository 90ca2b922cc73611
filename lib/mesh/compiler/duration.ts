/**
 * Durations as the mesh system writes them: Go's `time.ParseDuration` and `Duration.String()`.
 * Values are kept as integer nanoseconds (a JS number is exact up to about 104 days).
 */

const NS: Record<string, number> = {
  ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9,
};

/** Parses a Go duration string (`"1m30s"`, `"500ms"`, `"0"`) into nanoseconds; throws with Go's message. */
export function parseGoDuration(s: string): number {
  const orig = s;
  const invalid = () => new Error(`time: invalid duration "${orig}"`);
  let neg = false;
  if (s.startsWith('-') || s.startsWith('+')) { neg = s[0] === '-'; s = s.slice(1); }
  if (s === '0') return 0;
  if (s === '') throw invalid();
  let total = 0;
  while (s !== '') {
    const m = /^(\d*)(\.(\d*))?/.exec(s)!;
    if (m[1] === '' && (m[3] === undefined || m[3] === '')) throw invalid();
    s = s.slice(m[0].length);
    const u = /^[^\d.]+/.exec(s);
    if (!u) throw new Error(`time: missing unit in duration "${orig}"`);
    const unit = NS[u[0]];
    if (unit === undefined) throw new Error(`time: unknown unit "${u[0]}" in duration "${orig}"`);
    s = s.slice(u[0].length);
    const whole = m[1] === '' ? 0 : Number(m[1]);
    const frac = m[3] ? Number(`0.${m[3]}`) : 0;
    total += whole * unit + Math.round(frac * unit);
  }
  if (!Number.isSafeInteger(total)) throw invalid();
  return neg ? -total : total;
}

/**
 * A duration given as a Go string or as a number of nanoseconds (the mesh system's JSON
 * decoding accepts both) in nanoseconds.
 */
export function durationNs(v: unknown): number {
  if (v === undefined || v === null || v === '') return 0;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`time: invalid duration "${v}"`);
    return Math.trunc(v);
  }
  if (typeof v === 'string') return parseGoDuration(v);
  throw new Error(`time: invalid duration "${String(v)}"`);
}

/** Formats nanoseconds as Go's `Duration.String()` does: `5s`, `1m0s`, `1m30s`, `500ms`, `1h0m0s`. */
export function formatGoDuration(ns: number): string {
  if (ns === 0) return '0s';
  const neg = ns < 0;
  let u = Math.abs(Math.trunc(ns));
  let out: string;
  if (u < 1e9) {
    let prec: number; let unit: string;
    if (u < 1e3) { prec = 0; unit = 'ns'; } else if (u < 1e6) { prec = 3; unit = 'µs'; } else { prec = 6; unit = 'ms'; }
    const [frac, rest] = fmtFrac(u, prec);
    out = `${rest}${frac}${unit}`;
  } else {
    const [frac, secs] = fmtFrac(u, 9);
    u = secs;
    out = `${u % 60}${frac}s`;
    u = Math.floor(u / 60);
    if (u > 0) {
      out = `${u % 60}m${out}`;
      u = Math.floor(u / 60);
      if (u > 0) out = `${u}h${out}`;
    }
  }
  return neg ? `-${out}` : out;
}

/** Splits off `prec` decimal digits, dropping trailing zeros (and the dot when all are zero). */
function fmtFrac(v: number, prec: number): [string, number] {
  let digits = '';
  let print = false;
  for (let i = 0; i < prec; i++) {
    const d = v % 10;
    print = print || d !== 0;
    if (print) digits = `${d}${digits}`;
    v = Math.floor(v / 10);
  }
  return [print ? `.${digits}` : '', v];
}

/** Normalises a duration (Go string or nanoseconds) to Go's canonical string; `undefined` stays. */
export function canonicalDuration(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  return formatGoDuration(durationNs(v));
}
