import { declaredPermissions } from '../../core/engine/registry';
import { isAttrRef, isSecretRef } from '../../core/model';
import { POLICY_UNSAFE_CHARS } from './engine-fields';

/**
 * What every secrets kind's policy is made of: each handler declares the ACL paths its requests need
 * (`permissions`, a `SecretsPolicyOf`) with these helpers, and `converge policy`, `LeastPrivilegePolicy`
 * and the preflight collect them from the registry (`secretsPolicyOf`).
 */

/** One `path` block of a secrets-service ACL policy. */
export interface PolicyPath {
  readonly path: string;
  readonly capabilities: readonly string[];
}

type Spec = Record<string, unknown>;

/**
 * The requests a secrets kind makes through plan (read), apply (create and update) and destroy (delete),
 * as ACL paths and capabilities. A write needs `create` where the service checks existence and nothing
 * is there yet (KV data and metadata, database connections and roles), else `update`.
 */
export type SecretsPolicyOf = (spec: Spec) => PolicyPath[];

/** The desired resources of a stack by address, as a policy reads them (a reference's target). */
export type PolicyResources = Readonly<Record<string, { kind: string; spec: Spec }>>;

/**
 * A path part read from the synthesized output, which whoever opened a pull request may have written
 * by hand: one holding a character that would end the quoted path or act as an ACL wildcard or
 * template is refused (the constructs refuse it at synth), so that a policy grants only the paths declared.
 */
function literal(v: string, field: string): string {
  if (POLICY_UNSAFE_CHARS.test(v) || (v.includes('..') && v.split('/').some((x) => x === '..'))) {
    throw new Error(`${field}: ${JSON.stringify(v)} holds a control character, a quote, a backslash, "*", "+", "{", "}" or a ".." segment: ` +
      'converge policy does not print a policy for it (it would grant more than that path)');
  }
  return v;
}

/** Whether a spec value is only known at apply time (a reference to another construct's attribute, a secret). */
function late(v: unknown): boolean {
  return isAttrRef(v) || isSecretRef(v);
}

/** A path part that is neither a string nor known only at apply time: a hand-written output widening the policy. */
function notAPath(v: unknown, field: string): Error {
  return new Error(`${field}: must be a string (got ${v === undefined ? 'nothing' : Array.isArray(v) ? 'a list' : v === null ? 'null' : typeof v}): ` +
    'converge policy does not print a policy for it (a wildcard in its place would grant more than the path)');
}

/** A path segment from the spec; `+` (any one segment) when it is only known at apply time. */
export function seg(v: unknown, field = 'mount'): string {
  if (late(v)) return '+';
  if (typeof v !== 'string') throw notAPath(v, field);
  return literal(v, field);
}

/** A KV key path from the spec; `*` (any suffix) when it is only known at apply time. */
export function keyPath(v: unknown): string {
  if (late(v)) return '*';
  if (typeof v !== 'string') throw notAPath(v, 'path');
  return literal(v, 'path');
}

/** A lookup's id (the object's API path), as given in the spec. */
function apiPath(v: unknown): string {
  if (typeof v !== 'string') throw notAPath(v, 'id');
  return literal(v, 'id');
}

/** One path block. */
export const policyPath = (path: string, ...capabilities: string[]): PolicyPath => ({ path, capabilities });

/** A lookup (`PlatformTokenRole.fromName`, …) reads the object at its id, its API path. */
export const READ_AT_ID: SecretsPolicyOf = (s) => [policyPath(apiPath(s.id), 'read')];

/** Credentials under a lease: a plan looks the kept lease up, destroy (and a replacement) revokes it. */
export const LEASES: readonly PolicyPath[] = [policyPath('sys/leases/lookup', 'update'), policyPath('sys/leases/revoke', 'update')];

/** Where converge asks, before it applies, what its token may do on the paths a plan writes (`update`). */
export const PREFLIGHT_PATH = 'sys/capabilities-self';

/**
 * A stack's whole policy: its kinds' paths merged, and the preflight's own path where there are any
 * (a token without it is not refused, but its plan cannot say beforehand what it would be refused).
 */
export function stackSecretsPolicy(paths: readonly PolicyPath[]): PolicyPath[] {
  return paths.length ? mergePolicy([...paths, policyPath(PREFLIGHT_PATH, 'update')]) : [];
}

const ORDER = ['create', 'read', 'update', 'patch', 'delete', 'list', 'sudo'];

/** Joins the paths of several kinds: one block per path, capabilities merged and ordered, paths sorted. */
export function mergePolicy(paths: readonly PolicyPath[]): PolicyPath[] {
  const byPath = new Map<string, Set<string>>();
  for (const x of paths) {
    const set = byPath.get(x.path) ?? new Set<string>();
    x.capabilities.forEach((c) => set.add(c));
    byPath.set(x.path, set);
  }
  return [...byPath.keys()].sort().map((path) => ({
    path, capabilities: [...byPath.get(path)!].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b)),
  }));
}

/** Kinds whose output `mountedPath` is their spec's `path` (a `SecretsMount`, an `AuthBackend`). */
const PATH_OUTPUT_KINDS = new Set(['secrets.SecretsMount', 'secrets.AuthBackend']);

/**
 * The spec with each reference to a mount's `path` output (a construct placed in a mount by reference)
 * (`mountedPath`) replaced by the path the mount's own spec holds: known at synth, so the policy names the exact
 * path instead of `+`. `resources`: the stack's desired resources by address.
 */
export function withKnownMountPaths(spec: Spec, resources: PolicyResources): Spec {
  const known = (v: unknown): unknown => {
    if (!isAttrRef(v) || v.attr !== 'mountedPath' || (v as { $stack?: string }).$stack !== undefined) return v;
    const target = resources[v.$ref];
    return target && PATH_OUTPUT_KINDS.has(target.kind) && typeof target.spec.path === 'string' && !isAttrRef(target.spec.path) ? target.spec.path : v;
  };
  // The spec itself when nothing refers to a mount's path (every object of a plan comes here: no copy each).
  let out: Spec | undefined;
  for (const k of Object.keys(spec)) {
    const v = spec[k];
    const x = known(v);
    if (x !== v) (out ??= { ...spec })[k] = x;
  }
  return out ?? spec;
}

/** The policy a registered secrets kind declares; undefined for a kind of another API (or one declaring none). */
export function declaredSecretsPolicy(kind: string): SecretsPolicyOf | undefined {
  const declared = declaredPermissions(kind);
  return declared?.api === 'secrets' ? declared.permissions as SecretsPolicyOf : undefined;
}

/**
 * The paths a desired resource needs, as its registered handler declares them (undefined for a kind of
 * another API), mount references resolved. The secrets kinds must be registered (`registerDomain`).
 */
export function registeredSecretsPolicyOf(kind: string, spec: Spec, resources: PolicyResources): PolicyPath[] | undefined {
  const of = declaredSecretsPolicy(kind);
  return of ? of(withKnownMountPaths(spec, resources)) : undefined;
}
