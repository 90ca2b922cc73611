/**
 * The ACL token store of the mesh emulator. Tokens are kept by the SHA-256 of their secret
 * (a snapshot never holds a token). A token's rules: `service:read` on the names in
 * `serviceRead` (or `*`), plus those of its policies; rules apply in the token's namespace.
 * The management token (given at start) and tokens with the `global-management` policy may do anything.
 */
import * as crypto from 'crypto';

export interface PolicyRecord {
  readonly name: string;
  readonly management?: boolean;
  /** Service names (or `*`) the policy may read. */
  readonly serviceRead: string[];
  /** Service names (or `*`) the policy may write (and read), config entries included. */
  readonly serviceWrite: string[];
  /** May write proxy-defaults (the mesh system's `operator:write`). */
  readonly operatorWrite: boolean;
  /** Service names (or `*`) whose intentions the policy may write (`intentions = "write"`). */
  readonly intentionsWrite?: string[];
  /** The policy's `acl` rule: may read, or write, ACL policies, roles and tokens. */
  readonly acl?: 'read' | 'write';
  /** Written through `/v1/acl/policy`: its UUID, description, rules text as given, datacenters and raft indexes. */
  readonly id?: string;
  readonly description?: string;
  readonly rules?: string;
  readonly datacenters?: string[];
  readonly createIndex?: number;
  readonly modifyIndex?: number;
}

export interface TokenRecord {
  readonly accessorId: string;
  /** SHA-256 of the secret id, hex. */
  readonly secretDigest: string;
  readonly policies: string[];
  readonly serviceRead: string[];
  readonly namespace: string;
  readonly description?: string;
  readonly createTime: string;
  /** Names of roles whose policies the token holds. */
  readonly roles?: string[];
  /** `<node>:<datacenter>` identities (the mesh grants them `node:write` on that node). */
  readonly nodeIdentities?: string[];
  /** `<service>[:<dc>,…]` identities, as given. */
  readonly serviceIdentities?: string[];
  readonly partition?: string;
  /** Written through `/v1/acl/token`: local to the datacenter, and its raft indexes. */
  readonly local?: boolean;
  readonly createIndex?: number;
  readonly modifyIndex?: number;
}

/** A role: a named set of policies tokens can hold. */
export interface RoleRecord {
  readonly name: string;
  /** Policy names. */
  readonly policies: string[];
  /** Written through `/v1/acl/role`: its UUID, description, identities and raft indexes. */
  readonly id?: string;
  readonly description?: string;
  readonly serviceIdentities?: { ServiceName: string; Datacenters?: string[] }[];
  readonly nodeIdentities?: { NodeName: string; Datacenter: string }[];
  readonly createIndex?: number;
  readonly modifyIndex?: number;
}

export interface AclState {
  tokens: TokenRecord[];
  policies: PolicyRecord[];
  roles?: RoleRecord[];
  /** Namespaces and partitions that exist besides `default`. */
  namespaces?: string[];
  partitions?: string[];
  /** Unused: bootstrap is always refused (the emulator starts with a management token); kept so older snapshots load. */
  bootstrapped?: boolean;
}

export const GLOBAL_MANAGEMENT: PolicyRecord = {
  name: 'global-management', management: true, serviceRead: ['*'], serviceWrite: ['*'], operatorWrite: true,
};

export function digest(secret: string): string {
  return crypto.createHash('sha256').update(secret).digest('hex');
}

/** What a request's token may do. */
export interface Caller {
  readonly management: boolean;
  /** The token's namespace (rules apply only there). */
  readonly namespace?: string;
  readonly accessorId: string;
  canReadService(namespace: string, service: string): boolean;
  canWriteService(namespace: string, service: string): boolean;
  /** May write the service's intentions (`*`: every service's). */
  canWriteIntentions(namespace: string, service: string): boolean;
  readonly operatorWrite: boolean;
  /** The `acl` rule its policies grant (management tokens may do anything anyway). */
  readonly acl?: 'read' | 'write';
}

/** A request without a token: the anonymous token, which may do nothing (ACLs deny by default). */
export const ANONYMOUS: Caller = {
  management: false, accessorId: 'anonymous', canReadService: () => false, canWriteService: () => false, canWriteIntentions: () => false,
  operatorWrite: false,
};

/** The caller of a request (anonymous without a token); `'unknown'` for a token the store does not know. */
export function resolveCaller(secret: string | undefined, managementDigest: string, acl: AclState): Caller | 'unknown' {
  if (!secret) return ANONYMOUS;
  const d = digest(secret);
  const all = (): boolean => true;
  if (d === managementDigest) {
    return { management: true, accessorId: 'management', canReadService: all, canWriteService: all, canWriteIntentions: all, operatorWrite: true };
  }
  const token = acl.tokens.find((t) => t.secretDigest === d);
  if (!token) return 'unknown';
  const names = [...token.policies, ...(token.roles ?? []).flatMap((r) => acl.roles?.find((x) => x.name === r)?.policies ?? [])];
  const policies = names.map((p) => acl.policies.find((x) => x.name === p)).filter((p): p is PolicyRecord => !!p);
  if (policies.some((p) => p.management)) {
    return { management: true, accessorId: token.accessorId, canReadService: all, canWriteService: all, canWriteIntentions: all, operatorWrite: true };
  }
  const matches = (names: string[], service: string) => names.includes('*') || names.includes(service);
  const write = policies.flatMap((p) => p.serviceWrite);
  const read = [...token.serviceRead, ...policies.flatMap((p) => p.serviceRead), ...write];
  const inNs = (ns: string) => ns === token.namespace;
  return {
    management: false,
    namespace: token.namespace,
    accessorId: token.accessorId,
    canReadService: (ns, s) => inNs(ns) && matches(read, s),
    canWriteService: (ns, s) => inNs(ns) && matches(write, s),
    canWriteIntentions: (ns, s) => inNs(ns) && matches(policies.flatMap((p) => p.intentionsWrite ?? []), s),
    acl: policies.some((p) => p.acl === 'write') ? 'write' : policies.some((p) => p.acl === 'read') ? 'read' : undefined,
    operatorWrite: policies.some((p) => p.operatorWrite),
  };
}

/** Options of a new token (also used by the secrets emulator's mesh-token engine). */
export interface CreateTokenOptions {
  /** Policy names (`global-management`, or policies created under `/__admin/policies`). */
  readonly policies?: string[];
  /** Service names, or `*`, the token may read (`service:read`). */
  readonly serviceRead?: string[];
  /** @default "default" */
  readonly namespace?: string;
  readonly description?: string;
  /** Role names (they must exist). */
  readonly roles?: string[];
  readonly nodeIdentities?: string[];
  readonly serviceIdentities?: string[];
  /** @default "default" (it must exist, as must `namespace`, when `checkScopes` is set) */
  readonly partition?: string;
  /** Refuse a namespace or partition that was not created (the real mesh does; tokens seeded for tests skip it). */
  readonly checkScopes?: boolean;
}

/** Adds a token; throws for an unknown policy, role, or (with `checkScopes`) namespace or partition. */
export function createToken(acl: AclState, options: CreateTokenOptions): { secretId: string; accessorId: string } {
  for (const p of options.policies ?? []) {
    if (!acl.policies.some((x) => x.name === p)) throw new Error(`cannot find policy "${p}"`);
  }
  for (const r of options.roles ?? []) {
    if (!acl.roles?.some((x) => x.name === r)) throw new Error(`cannot find role "${r}"`);
  }
  for (const n of options.nodeIdentities ?? []) {
    if (!/^[^:]+:[^:]+$/.test(n)) throw new Error(`invalid node identity "${n}"`);
  }
  if (options.checkScopes) {
    const ns = options.namespace || 'default';
    const part = options.partition || 'default';
    if (part !== 'default' && !acl.partitions?.includes(part)) throw new Error(`Partition "${part}" does not exist`);
    if (ns !== 'default' && !acl.namespaces?.includes(ns)) throw new Error(`Namespace "${ns}" does not exist`);
  }
  const secretId = crypto.randomUUID();
  const accessorId = crypto.randomUUID();
  acl.tokens.push({
    accessorId,
    secretDigest: digest(secretId),
    policies: [...(options.policies ?? [])],
    serviceRead: [...(options.serviceRead ?? [])],
    namespace: options.namespace || 'default',
    ...(options.description ? { description: options.description } : {}),
    createTime: new Date().toISOString(),
    ...(options.roles?.length ? { roles: [...options.roles] } : {}),
    ...(options.nodeIdentities?.length ? { nodeIdentities: [...options.nodeIdentities] } : {}),
    ...(options.serviceIdentities?.length ? { serviceIdentities: [...options.serviceIdentities] } : {}),
    ...(options.partition && options.partition !== 'default' ? { partition: options.partition } : {}),
  });
  return { secretId, accessorId };
}

/** Removes a token by accessor id; false when unknown. */
export function deleteToken(acl: AclState, accessorId: string): boolean {
  const i = acl.tokens.findIndex((t) => t.accessorId === accessorId);
  if (i < 0) return false;
  acl.tokens.splice(i, 1);
  return true;
}
