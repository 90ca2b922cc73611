import { isAttrRef, isSecretRef, SecretRef } from '../model';
import { fieldHmac } from '../crypto/field-hmac';
import { resolveSecret } from '../crypto/resolve-secret';
import { Spec } from './handler';

/** Marks a value that is known only after a dependency is applied. */
export const UNKNOWN = Object.freeze({ $unknown: true });
export function isUnknown(v: unknown): boolean {
  return v === UNKNOWN || (typeof v === 'object' && v !== null && (v as { $unknown?: boolean }).$unknown === true);
}

/**
 * A referenced value that is a secret (a generated TOTP URL, a token, a data source's secret
 * data): wherever it flows it stays a secret (masked in plans, an HMAC in state).
 */
export class SensitiveValue {
  constructor(public readonly value: unknown, public readonly source: string) {}
}

/**
 * Looks up `attr` of the object at `address` (of `stack`, for a cross-stack reference; else this
 * stack's); UNKNOWN when not yet known, a SensitiveValue for a secret.
 */
export type RefLookup = (address: string, attr: string, stack?: string) => unknown;

/** A reference that cannot be resolved; resolveSpec names the construct that holds it. */
export class RefError extends Error {}

/** A spec with secrets and references resolved. */
export interface ResolvedSpec {
  /** Secrets in clear, references filled: only for handlers, never stored or printed. */
  readonly value: Spec;
  /** The spec as state keeps it: secrets as their source, references filled (secret ones as their source). */
  readonly stored: Spec;
  /** HMAC of each secret leaf, by path. */
  readonly hmacs: Record<string, string>;
  /** Paths of secret leaves. */
  readonly secretPaths: Set<string>;
  /** Whether some value is unknown until apply. */
  readonly hasUnknown: boolean;
}

/**
 * Resolves secrets and references of a synthesized spec. `salt` is the state record's (see
 * fieldHmac); undefined only for records written before salts existed.
 */
export function resolveSpec(raw: Record<string, unknown>, where: string, lookup: RefLookup, salt?: string): ResolvedSpec {
  const hmacs: Record<string, string> = {};
  const secretPaths = new Set<string>();
  let hasUnknown = false;
  const secret = (value: unknown, source: SecretRef, p: string): [unknown, unknown] => {
    hmacs[p] = fieldHmac(salt, p, value);
    secretPaths.add(p);
    return [value, source];
  };
  const walk = (v: unknown, p: string): [unknown, unknown] => {
    if (isSecretRef(v)) return secret(resolveSecret(v, `${where}: ${p}`), v, p);
    if (isAttrRef(v)) {
      let value: unknown;
      try {
        value = lookup(v.$ref, v.attr, v.stack);
      } catch (e) {
        if (e instanceof RefError) throw new Error(`${where}: ${e.message}`);
        throw e;
      }
      if (value instanceof SensitiveValue) return secret(value.value, { $secret: { ref: value.source } }, p);
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
