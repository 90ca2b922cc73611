import { isAttrRef, isSecretRef } from '../model';
import { resolveSecret } from '../secrets/resolve-secret';
import { hmac } from '../secrets/state-key';
import { Spec } from './handler';

/** Marks a value that is known only after a dependency is applied. */
export const UNKNOWN = Object.freeze({ $unknown: true });
export function isUnknown(v: unknown): boolean {
  return v === UNKNOWN || (typeof v === 'object' && v !== null && (v as { $unknown?: boolean }).$unknown === true);
}

/** Looks up `attr` of the object at `address`; UNKNOWN when not yet known. */
export type RefLookup = (address: string, attr: string) => unknown;

/** A spec with secrets and references resolved. */
export interface ResolvedSpec {
  /** Secrets in clear, references filled: only for handlers, never stored or printed. */
  readonly value: Spec;
  /** The spec as state keeps it: secrets as their source, references filled. */
  readonly stored: Spec;
  /** HMAC of each secret leaf, by path. */
  readonly hmacs: Record<string, string>;
  /** Paths of secret leaves. */
  readonly secretPaths: Set<string>;
  /** Whether some value is unknown until apply. */
  readonly hasUnknown: boolean;
}

export function resolveSpec(raw: Record<string, unknown>, where: string, lookup: RefLookup): ResolvedSpec {
  const hmacs: Record<string, string> = {};
  const secretPaths = new Set<string>();
  let hasUnknown = false;
  const walk = (v: unknown, p: string): [unknown, unknown] => {
    if (isSecretRef(v)) {
      const value = resolveSecret(v, `${where}: ${p}`);
      hmacs[p] = hmac(value);
      secretPaths.add(p);
      return [value, v];
    }
    if (isAttrRef(v)) {
      const value = lookup(v.$ref, v.attr);
      if (isUnknown(value)) hasUnknown = true;
      return [value, value];
    }
    if (Array.isArray(v)) {
      const pairs = v.map((x, i) => walk(x, `${p}[${i}]`));
      return [pairs.map((x) => x[0]), pairs.map((x) => x[1])];
    }
    if (v !== null && typeof v === 'object') {
      const a: Record<string, unknown> = {};
      const b: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const [va, vb] = walk(x, p ? `${p}.${k}` : k);
        a[k] = va;
        b[k] = vb;
      }
      return [a, b];
    }
    return [v, v];
  };
  const [value, stored] = walk(raw, '');
  return { value: value as Spec, stored: stored as Spec, hmacs, secretPaths, hasUnknown };
}
