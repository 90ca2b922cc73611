import { Capability, PathRule } from './policy-parser';

/**
 * The capabilities a set of policies grants on one path, as the real service decides them:
 * - rules naming the same pattern in several policies are merged (their capabilities joined);
 * - an exact pattern wins over every glob; for a list, `a/b` also covers `a/b/`;
 * - otherwise, of the glob patterns that match (`*` at the end: any suffix; a `+` segment: one
 *   segment), the most specific wins: the later its first wildcard, then not ending in `*`, then
 *   fewer `+` segments, then longer, then lexically greater;
 * - `deny` takes everything away.
 */
export class Acl {
  private readonly exact = new Map<string, Set<Capability>>();
  private readonly globs = new Map<string, Set<Capability>>();

  constructor(rules: readonly PathRule[]) {
    for (const r of rules) {
      const target = isGlob(r.pattern) ? this.globs : this.exact;
      const set = target.get(r.pattern) ?? new Set<Capability>();
      for (const c of r.capabilities) set.add(c);
      target.set(r.pattern, set);
    }
  }

  /** The capabilities granted on `path` (below `/v1`, no leading slash); empty when none. */
  public capabilities(path: string, listing = false): Set<Capability> {
    const exact = this.exact.get(path) ?? (listing && path.endsWith('/') ? this.exact.get(path.replace(/\/+$/, '')) : undefined);
    const caps = exact ?? this.bestGlob(path);
    if (!caps || caps.has('deny')) return new Set();
    return caps;
  }

  private bestGlob(path: string): Set<Capability> | undefined {
    let best: string | undefined;
    for (const pattern of this.globs.keys()) {
      if (matches(pattern, path) && (best === undefined || morePrecise(pattern, best))) best = pattern;
    }
    return best === undefined ? undefined : this.globs.get(best);
  }
}

function isGlob(pattern: string): boolean {
  return pattern.endsWith('*') || pattern.split('/').includes('+');
}

/** Whether a pattern (`*` at the end, `+` segments) covers a path. */
export function matches(pattern: string, path: string): boolean {
  const prefix = pattern.endsWith('*');
  const pSegs = (prefix ? pattern.slice(0, -1) : pattern).split('/');
  const segs = path.split('/');
  for (let i = 0; i < pSegs.length; i++) {
    const last = i === pSegs.length - 1;
    if (i >= segs.length) return false;
    if (pSegs[i] === '+') {
      if (last && !prefix && segs.length !== pSegs.length) return false;
      continue;
    }
    if (last && prefix) return segs.slice(i).join('/').startsWith(pSegs[i]);
    if (pSegs[i] !== segs[i]) return false;
  }
  return prefix ? true : segs.length === pSegs.length;
}

function firstWildcard(p: string): number {
  const plus = p.split('/').findIndex((s) => s === '+');
  const plusAt = plus < 0 ? Infinity : p.split('/').slice(0, plus).join('/').length + (plus > 0 ? 1 : 0);
  const star = p.endsWith('*') ? p.length - 1 : Infinity;
  return Math.min(plusAt, star);
}

/** The real service's priority of two matching glob patterns: true when `a` wins over `b`. */
export function morePrecise(a: string, b: string): boolean {
  const wa = firstWildcard(a);
  const wb = firstWildcard(b);
  if (wa !== wb) return wa > wb;
  const sa = a.endsWith('*');
  const sb = b.endsWith('*');
  if (sa !== sb) return !sa;
  const pa = a.split('/').filter((s) => s === '+').length;
  const pb = b.split('/').filter((s) => s === '+').length;
  if (pa !== pb) return pa < pb;
  if (a.length !== b.length) return a.length > b.length;
  return a > b;
}
