/**
 * Records which parts of an emulator's state changed, so that the host journals only those parts
 * instead of rewriting the whole state after every write.
 *
 * `track(scope, root)` returns a proxy of a plain-JSON state tree. Every assignment or deletion
 * through it (at any depth, also from timers) marks the *unit* it falls in dirty: the path cut
 * to `depth` segments below the root (`keys/<path>` of a KV engine, `organizations/<id>` of the
 * platform). `take()` then lists each dirty unit with its current value (or its absence), and
 * `applyChange()` puts such a value back on replay.
 *
 * Only plain objects and arrays are wrapped; the raw tree never holds a proxy (assigned values are
 * unwrapped), so snapshots serialise the raw tree at full speed.
 */

/** One changed unit: its scope (the tracked root), path below the root, and value (`deleted` when gone). */
export interface TrackedChange {
  readonly scope: string;
  readonly path: string[];
  readonly value?: unknown;
  readonly deleted?: boolean;
}

function isPlain(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

export class ChangeTracker {
  private readonly roots = new Map<string, object>();
  private readonly dirty = new Map<string, { scope: string; path: string[] }>();
  /** Proxy -> raw target. */
  private readonly targets = new WeakMap<object, object>();
  /** Raw target -> proxies by `scope + unit path` (one proxy per place, so identity holds). */
  private readonly proxies = new WeakMap<object, Map<string, object>>();

  /**
   * @param onChange called after every change (the host schedules a journal write)
   * @param depth path segments that make one unit
   */
  constructor(private readonly onChange: () => void, private readonly depth = 2) {}

  /** Tracks `root` (raw or a proxy) as `scope`; returns the proxy to use in its place. */
  public track<T extends object>(scope: string, root: T): T {
    const raw = this.raw(root);
    this.roots.set(scope, raw);
    return this.wrap(raw, scope, []) as T;
  }

  public untrack(scope: string): void {
    this.roots.delete(scope);
    for (const [k, d] of this.dirty) if (d.scope === scope) this.dirty.delete(k);
  }

  /** The raw object behind a proxy (the value itself otherwise). */
  public raw<T>(v: T): T {
    return (v !== null && typeof v === 'object' && this.targets.get(v as unknown as object) as T) || v;
  }

  /** Marks a whole scope changed (an API that cannot track a part of its state). */
  public markScope(scope: string): void {
    this.mark(scope, []);
  }

  /** The dirty units with their current values; clears the list. */
  public take(): TrackedChange[] {
    const out: TrackedChange[] = [];
    for (const { scope, path } of this.dirty.values()) {
      let node: unknown = this.roots.get(scope);
      let found = node !== undefined;
      for (const seg of path) {
        if (!found || node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, seg)) { found = false; break; }
        node = (node as Record<string, unknown>)[seg];
      }
      out.push(found ? { scope, path, value: node } : { scope, path, deleted: true });
    }
    this.dirty.clear();
    return out;
  }

  public get pending(): number {
    return this.dirty.size;
  }

  /** Puts a unit's value back into a raw root (replay). An empty path is the caller's to handle. */
  public static applyChange(root: Record<string, unknown>, path: string[], value: unknown, deleted: boolean): void {
    let node = root;
    for (const seg of path.slice(0, -1)) {
      if (!isPlain(node[seg])) node[seg] = {};
      node = node[seg] as Record<string, unknown>;
    }
    const last = path[path.length - 1];
    if (deleted) delete node[last];
    else node[last] = value;
  }

  private mark(scope: string, path: string[]): void {
    const key = `${scope}\u0000${path.join('\u0000')}`;
    if (!this.dirty.has(key)) this.dirty.set(key, { scope, path });
    this.onChange();
  }

  private wrap(target: object, scope: string, path: string[]): object {
    const key = `${scope}\u0000${path.join('\u0000')}`;
    let byPlace = this.proxies.get(target);
    const known = byPlace?.get(key);
    if (known) return known;
    const unitOf = (k: string | symbol): string[] => (path.length >= this.depth ? path : [...path, String(k)]);
    const proxy = new Proxy(target, {
      get: (t, k, recv) => {
        const v = Reflect.get(t, k, recv);
        if (typeof k === 'symbol' || !isPlain(v) || !this.roots.has(scope)) return v;
        return this.wrap(v, scope, unitOf(k));
      },
      set: (t, k, v) => {
        (t as Record<string | symbol, unknown>)[k] = this.unwrapDeep(v);
        if (typeof k !== 'symbol' && this.roots.has(scope)) this.mark(scope, unitOf(k));
        return true;
      },
      deleteProperty: (t, k) => {
        delete (t as Record<string | symbol, unknown>)[k];
        if (typeof k !== 'symbol' && this.roots.has(scope)) this.mark(scope, unitOf(k));
        return true;
      },
      defineProperty: (t, k, d) => {
        const ok = Reflect.defineProperty(t, k, 'value' in d ? { ...d, value: this.unwrapDeep(d.value) } : d);
        if (typeof k !== 'symbol' && this.roots.has(scope)) this.mark(scope, unitOf(k));
        return ok;
      },
    });
    this.targets.set(proxy, target);
    if (!byPlace) { byPlace = new Map(); this.proxies.set(target, byPlace); }
    byPlace.set(key, proxy);
    return proxy;
  }

  /** Replaces proxies inside an assigned value by their raw objects (the raw tree never holds one). */
  private unwrapDeep(v: unknown, seen = new Set<object>()): unknown {
    if (v === null || typeof v !== 'object') return v;
    const raw = this.targets.get(v);
    if (raw) return raw;
    if (!isPlain(v) || seen.has(v)) return v;
    seen.add(v);
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      const c = o[k];
      if (c !== null && typeof c === 'object') {
        const u = this.unwrapDeep(c, seen);
        if (u !== c) o[k] = u;
      }
    }
    return v;
  }
}
