import { isAttrRef, isSecretRef } from '../core/model';
import { POLICY_UNSAFE_CHARS } from './engine-fields';

/** One `path` block of a secrets-service ACL policy. */
export interface PolicyPath {
  readonly path: string;
  readonly capabilities: readonly string[];
}

type Spec = Record<string, unknown>;
type PolicyOf = (spec: Spec) => PolicyPath[];

/**
 * A path part read from the synthesized output, which whoever opened a pull request may have written
 * by hand: one holding a character that would end the quoted path or act as an ACL wildcard or
 * template is refused (the constructs refuse it at synth), so that a policy grants only the paths declared.
 */
function literal(v: string, field: string): string {
  if (POLICY_UNSAFE_CHARS.test(v) || v.split('/').some((x) => x === '..')) {
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
function seg(v: unknown, field = 'mount'): string {
  if (late(v)) return '+';
  if (typeof v !== 'string') throw notAPath(v, field);
  return literal(v, field);
}

/** A KV key path from the spec; `*` (any suffix) when it is only known at apply time. */
function keyPath(v: unknown): string {
  if (late(v)) return '*';
  if (typeof v !== 'string') throw notAPath(v, 'path');
  return literal(v, 'path');
}

/** A lookup's id (the object's API path), as given in the spec. */
function apiPath(v: unknown): string {
  if (typeof v !== 'string') throw notAPath(v, 'id');
  return literal(v, 'id');
}

const p = (path: string, ...capabilities: string[]): PolicyPath => ({ path, capabilities });

/** Where converge asks, before it applies, what its token may do on the paths a plan writes (`update`). */
export const PREFLIGHT_PATH = 'sys/capabilities-self';

/**
 * A stack's whole policy: its kinds' paths merged, and the preflight's own path where there are any
 * (a token without it is not refused, but its plan cannot say beforehand what it would be refused).
 */
export function stackSecretsPolicy(paths: readonly PolicyPath[]): PolicyPath[] {
  return paths.length ? mergePolicy([...paths, p(PREFLIGHT_PATH, 'update')]) : [];
}

/** Credentials under a lease: a plan looks the kept lease up, destroy (and a replacement) revokes it. */
const LEASES = [p('sys/leases/lookup', 'update'), p('sys/leases/revoke', 'update')];

/**
 * The requests each secrets kind makes through plan (read), apply (create and update) and destroy
 * (delete), as ACL paths and capabilities; `converge policy` joins them for a stack. A write needs
 * `create` where the service checks existence and nothing is there yet (KV data and metadata,
 * database connections and roles), else `update`. Keep each entry beside what its handler calls.
 */
export const SECRETS_POLICY: Record<string, PolicyOf> = {
  // read: metadata, then the current version; create: metadata first (create), then data (the key exists: update).
  // A create is one data write with cas 0 (`create`: the key does not exist yet); metadata is written
  // after it (an `update`) only where a metadata prop is not the default.
  'secrets.KvSecret': (s) => [
    p(`${seg(s.mount)}/metadata/${keyPath(s.path)}`, 'read', 'update', 'delete'),
    p(`${seg(s.mount)}/data/${keyPath(s.path)}`, 'create', 'read', 'update'),
  ],
  // Destroy writes the defaults back: config has no existence check, so every write is an update.
  'secrets.KvEngineConfig': (s) => [p(`${seg(s.mount)}/config`, 'read', 'update')],
  'secrets.KvSecretData': (s) => [p(`${seg(s.mount)}/data/${keyPath(s.path)}`, 'read')],
  'secrets.KvSecretSubkeys': (s) => [p(`${seg(s.mount)}/subkeys/${keyPath(s.path)}`, 'read')],
  'secrets.DatabaseConnection': (s) => [
    p(`${seg(s.mount)}/config/${seg(s.name, 'name')}`, 'create', 'read', 'update', 'delete'),
    ...(s.rotateRootOnCreate === true ? [p(`${seg(s.mount)}/rotate-root/${seg(s.name, 'name')}`, 'update')] : []),
  ],
  'secrets.DatabaseRole': (s) => [p(`${seg(s.mount)}/roles/${seg(s.name, 'name')}`, 'create', 'read', 'update', 'delete')],
  'secrets.DatabaseStaticRole': (s) => [p(`${seg(s.mount)}/static-roles/${seg(s.name, 'name')}`, 'create', 'read', 'update', 'delete')],
  'secrets.DirectoryConfig': (s) => [p(`${seg(s.mount)}/config`, 'read', 'update', 'delete')],
  'secrets.DirectoryRole': (s) => [p(`${seg(s.mount)}/roles/${seg(s.name, 'name')}`, 'read', 'update', 'delete')],
  'secrets.DirectoryLibrarySet': (s) => [p(`${seg(s.mount)}/library/${seg(s.name, 'name')}`, 'read', 'update', 'delete')],
  'secrets.TotpKey': (s) => [p(`${seg(s.mount)}/keys/${seg(s.name, 'name')}`, 'read', 'update', 'delete')],
  'secrets.TotpKeyInfo': (s) => [p(`${seg(s.mount)}/keys/${seg(s.name, 'name')}`, 'read')],
  'secrets.PlatformTokenConfig': (s) => [p(`${seg(s.mount)}/config`, 'read', 'update', 'delete')],
  'secrets.PlatformTokenRole': (s) => [p(`${seg(s.mount)}/role/${seg(s.name, 'name')}`, 'read', 'update', 'delete')],
  'secrets.PlatformTokenCredentials': (s) => [p(`${seg(s.mount)}/creds/${seg(s.role, 'role')}`, 'read'), ...LEASES],
  // Destroy calls nothing (the engine keeps its access configuration).
  'secrets.MeshTokenConfig': (s) => [p(`${seg(s.mount)}/config/access`, 'read', 'update')],
  'secrets.MeshTokenRole': (s) => [p(`${seg(s.mount)}/roles/${seg(s.name, 'name')}`, 'read', 'update', 'delete')],
  'secrets.MeshTokenCredentials': (s) => [p(`${seg(s.mount)}/creds/${seg(s.role, 'role')}`, 'read'), ...LEASES],
  // Credentials: read (a dynamic user, a static password, a directory account's password); a check-out is a POST.
  'secrets.DatabaseCredentials': (s) => [p(`${seg(s.mount)}/creds/${seg(s.role, 'role')}`, 'read'), ...LEASES],
  'secrets.DatabaseStaticCredentials': (s) => [p(`${seg(s.mount)}/static-creds/${seg(s.role, 'role')}`, 'read')],
  'secrets.DirectoryCredentials': (s) => [p(`${seg(s.mount)}/creds/${seg(s.role, 'role')}`, 'read')],
  'secrets.DirectoryLibraryCheckOut': (s) => [p(`${seg(s.mount)}/library/${seg(s.setName, 'setName')}/check-out`, 'update'), ...LEASES],
  // Lookups (`PlatformTokenRole.fromName`, …) read the object at its id, its API path.
  'lookup:secrets.PlatformTokenRole': (s) => [p(apiPath(s.id), 'read')],
  'lookup:secrets.MeshTokenRole': (s) => [p(apiPath(s.id), 'read')],
  'lookup:secrets.DatabaseConnection': (s) => [p(apiPath(s.id), 'read')],
  'lookup:secrets.DatabaseRole': (s) => [p(apiPath(s.id), 'read')],
  'lookup:secrets.DatabaseStaticRole': (s) => [p(apiPath(s.id), 'read')],
  'lookup:secrets.DirectoryRole': (s) => [p(apiPath(s.id), 'read')],
  'lookup:secrets.DirectoryLibrarySet': (s) => [p(apiPath(s.id), 'read')],
  // A KV secret is read as a KvSecret is: its metadata, then its current version.
  'lookup:secrets.KvSecret': (s) => {
    const known = (s.known ?? {}) as Spec;
    return [p(`${seg(known.mount)}/metadata/${keyPath(known.path)}`, 'read'), p(`${seg(known.mount)}/data/${keyPath(known.path)}`, 'read')];
  },
  // sys/mounts has no existence check: enabling a mount is an update, as is a tune. Read is the mount's own entry.
  'secrets.SecretsMount': (s) => [p(`sys/mounts/${seg(s.path)}`, 'read', 'update', 'delete'), p(`sys/mounts/${seg(s.path)}/tune`, 'update')],
  // One write creates or replaces the document (no existence check: update).
  'secrets.SecretsPolicy': (s) => [p(`sys/policies/acl/${seg(s.name)}`, 'read', 'update', 'delete')],
  // The service asks `sudo` for every request to an auth method's entry and its tune.
  'secrets.AuthBackend': (s) => [p(`sys/auth/${seg(s.path)}`, 'read', 'update', 'delete', 'sudo'), p(`sys/auth/${seg(s.path)}/tune`, 'update', 'sudo')],
  // A role's path has an existence check (its first write is a `create`); its role id is read after each write.
  'secrets.AppRoleRole': (s) => [
    p(`auth/${seg(s.mount)}/role/${seg(s.name)}`, 'create', 'read', 'update', 'delete'),
    p(`auth/${seg(s.mount)}/role/${seg(s.name)}/role-id`, 'read'),
  ],
  // Issued by a POST; a plan looks the kept one up by accessor, destroy destroys it (both POSTs).
  'secrets.AppRoleSecretId': (s) => [
    p(`auth/${seg(s.mount)}/role/${seg(s.role)}/secret-id`, 'update'),
    p(`auth/${seg(s.mount)}/role/${seg(s.role)}/secret-id-accessor/lookup`, 'update'),
    p(`auth/${seg(s.mount)}/role/${seg(s.role)}/secret-id-accessor/destroy`, 'update'),
  ],
  // Created at the collection (update), then addressed by the server-assigned id; listed to recover after a crash.
  'secrets.PushMfaMethod': () => [
    p('identity/mfa/method/pushmfa', 'list', 'update'),
    p('identity/mfa/method/pushmfa/*', 'read', 'update', 'delete'),
  ],
};

/** Kinds whose output `mountedPath` is their spec's `path` (a `SecretsMount`, an `AuthBackend`). */
const PATH_OUTPUT_KINDS = new Set(['secrets.SecretsMount', 'secrets.AuthBackend']);

/**
 * The spec with each reference to a mount's `path` output (a construct placed in a mount by reference)
 * (`mountedPath`) replaced by the path the mount's own spec holds: known at synth, so the policy names the exact
 * path instead of `+`. `resources`: the stack's desired resources by address.
 */
export function withKnownMountPaths(spec: Spec, resources: Readonly<Record<string, { kind: string; spec: Spec }>>): Spec {
  const known = (v: unknown): unknown => {
    if (!isAttrRef(v) || v.attr !== 'mountedPath' || (v as { $stack?: string }).$stack !== undefined) return v;
    const target = resources[v.$ref];
    return target && PATH_OUTPUT_KINDS.has(target.kind) && typeof target.spec.path === 'string' && !isAttrRef(target.spec.path) ? target.spec.path : v;
  };
  return Object.fromEntries(Object.entries(spec).map(([k, v]) => [k, known(v)]));
}

/** The paths a desired resource needs (undefined for a kind of another API), mount references resolved. */
export function secretsPolicyOf(kind: string, spec: Spec, resources: Readonly<Record<string, { kind: string; spec: Spec }>>): PolicyPath[] | undefined {
  const of = SECRETS_POLICY[kind];
  return of ? of(withKnownMountPaths(spec, resources)) : undefined;
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

/**
 * The policy as the service's HCL: one `path` block per line, each path a quoted, escaped string
 * (paths are checked where they are read; escaped all the same, so that no path ends its string).
 */
export function policyHcl(paths: readonly PolicyPath[]): string {
  return paths.map((x) => `path ${hclString(x.path)} { capabilities = [${x.capabilities.map(hclString).join(', ')}] }`).join('\n');
}

/** A quoted HCL string: JSON's escapes (which HCL reads alike), and `${`/`%{` escaped as HCL templates would read them. */
export function hclString(v: string): string {
  return JSON.stringify(v).replace(/\$\{/g, '$$$${').replace(/%\{/g, '%%{');
}
