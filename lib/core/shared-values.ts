/**
 * Values that thousands of objects of a large stack hold equal (each resource's provider, an empty
 * `dependsOn`), kept once in memory instead of once per object: 100 000 objects read from the
 * synthesized app and from state held about 25 MB of such copies. Shared values are frozen, so that a
 * change meant for one object fails loudly instead of reaching the others.
 */
export class SharedValues {
  private readonly byJson = new Map<string, object>();

  /** The one frozen object equal (as JSON) to `v`; `v` itself, frozen, the first time. */
  public one<T extends object>(v: T): T {
    const key = JSON.stringify(v);
    const known = this.byJson.get(key);
    if (known) return known as T;
    this.byJson.set(key, Object.freeze(v));
    return v;
  }
}

const EMPTY_LIST: readonly never[] = Object.freeze([]);
const EMPTY_MAP: Readonly<Record<string, never>> = Object.freeze({});

/** `v`, or one shared frozen empty array when it is empty. */
export function sharedIfEmptyList<T>(v: T[]): T[] {
  return Array.isArray(v) && v.length === 0 ? (EMPTY_LIST as unknown as T[]) : v;
}

/** `v`, or one shared frozen empty object when it has no key. */
export function sharedIfEmptyMap<T extends Record<string, unknown>>(v: T): T {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  for (const _ in v) return v;
  return Object.getPrototypeOf(v) === Object.prototype ? (EMPTY_MAP as T) : v;
}
