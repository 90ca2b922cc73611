import { Clock, SYSTEM_CLOCK } from '../../core/clock';
import { EmuResponse } from '../../core/emulator-kit/types';
import { EngineLeases, EngineRequest } from '../emulator/engine';
import { boolParam, durationParam, listParam, stringParam } from '../emulator/field-params';
import { DEFAULT_LEASE_TTL, leased } from '../emulator/leases';
import { callService } from '../emulator/outbound';
import { envelope, errors, noContent, notFound, objectBody, RequestError } from '../emulator/responses';
import { RoleEngine } from '../shared/role-engine.emulator';
import { goDuration } from '../emulator/time';
import { Timers } from '../emulator/timers';

interface MeshAccess {
  address: string;
  scheme: string;
  token: string;
  caCert: string;
  clientCert: string;
  clientKey: string;
  /** The mesh's version (`GET /v1/agent/self`), learnt at the first role write after configuring. */
  version?: string;
}

interface MeshRole {
  meshPolicies: string[];
  meshRoles: string[];
  serviceIdentities: string[];
  nodeIdentities: string[];
  meshNamespace: string;
  partition: string;
  local: boolean;
  ttl: number;
  maxTtl: number;
  /** Parameters of mesh versions below 1.11 (kept only for roles written for such a mesh). */
  tokenType?: string;
  policy?: string;
  lease?: number;
}

/** A token handed out under a lease; revoked on the mesh when the lease expires. */
interface MeshLease {
  accessor: string;
  expiresMs: number;
  /** When it was issued and last renewed; absent in leases stored before these were kept. */
  issuedMs?: number;
  renewedMs?: number;
}

interface MeshTokenState {
  access?: MeshAccess;
  roles: Record<string, MeshRole>;
  leases: Record<string, MeshLease>;
}

const REVOKE_RETRY_MS = 5000;

/** Parameters of mesh versions below 1.11, which the emulated mesh (1.13) no longer takes. */
const REMOVED_IN_1_11 = ['token_type', 'policy', 'policies', 'lease'];

/** `major.minor` of a version string as one comparable number (1.10 -> 1010); undefined when unreadable. */
function versionNumber(v: string | undefined): number | undefined {
  const m = /^v?(\d+)\.(\d+)/.exec(v ?? '');
  return m ? Number(m[1]) * 1000 + Number(m[2]) : undefined;
}

/**
 * Service identities: a JSON list as given; a string split on commas, where a piece without
 * `:` is one more datacenter of the item before it (`web:dc1,dc2,db:dc1` -> `web:dc1,dc2`, `db:dc1`).
 */
export function parseServiceIdentities(v: unknown): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) return v.map(String).map((s) => s.trim()).filter(Boolean);
  if (typeof v !== 'string') throw new RequestError(400, 'error converting input for field "service_identities": expected a list or a comma-separated string');
  const out: string[] = [];
  for (const piece of v.split(',').map((s) => s.trim()).filter(Boolean)) {
    if (!piece.includes(':') && out.length) out[out.length - 1] += `,${piece}`;
    else out.push(piece);
  }
  return out;
}

/**
 * The mesh-token engine: `config/access`, `roles/<name>`, `creds/<name>`.
 *
 * Tokens are minted on the mesh at `<scheme>://<address>` through the mesh emulator's admin
 * interface (`POST /__admin/tokens`, authenticated by the configured management token): the
 * role's `mesh_policies` become the token's policies and its `mesh_roles` its roles (they must
 * exist there, else creds answer 500 with the mesh's error), its service identities
 * `service:read` on those services, its `mesh_namespace` the token's namespace.
 *
 * Roles are validated for the configured mesh's version (its agent's `GET /v1/agent/self`, asked
 * once after `config/access`; when it is unknown, the older parameters are taken): at least one of `mesh_policies`,
 * `mesh_roles`, `service_identities`, `node_identities` (400 otherwise). From 1.11, `token_type`,
 * `policy`, `policies` and `lease` are refused with 400 (removed in 1.11); below 1.11 they are
 * taken (`policies` as `mesh_policies`, `lease` as `ttl`, `policy` base64, `token_type` `client` or
 * `management`, which needs no policy) and read back as `policy`, `lease` (a duration string) and
 * `token_type`. A management role's tokens hold `global-management`; a `policy` (legacy rules) is
 * kept but grants nothing on the emulated mesh. Minted tokens hold the role's `mesh_roles`,
 * `node_identities` and `service_identities`; the mesh refuses a `mesh_namespace` or `partition`
 * that does not exist there (creds then answer 500 with its error).
 *
 * As the real service does, where the spec is silent:
 * - `config/access` without `token` bootstraps the mesh's ACL system (`PUT /v1/acl/bootstrap`);
 *   if that fails: 400 "Token not provided and failed to bootstrap ACLs: <error>". Read answers
 *   `address` and `scheme` only (404 before any write).
 * - Node identities must be `<node>:<datacenter>`; service identities `<service>[:<dc>[,<dc>]]`.
 * - Creds answer `token`, `accessor`, `local`, `mesh_namespace`, `partition` with a lease
 *   `<mount>/creds/<role>/<id>` of the role's `ttl` (768h when unset); an absent role: 400.
 * - When a lease expires its token is revoked on the mesh (`DELETE /__admin/tokens/<accessor>`),
 *   retried every 5 seconds while the mesh cannot be reached; a token already gone counts as revoked.
 */
export class MeshTokenEngine extends RoleEngine<MeshRole, MeshTokenState> {
  public readonly type = 'mesh';
  protected state: MeshTokenState = { roles: {}, leases: {} };
  private readonly timers: Timers;
  private closed = false;

  /** @param clock what time it is; lease expiries wait on it */
  constructor(mount: string, private readonly clock: Clock = SYSTEM_CLOCK) {
    super(mount, 'roles', ['GET']);
    this.timers = new Timers(clock);
  }

  public close(): void {
    this.closed = true;
    this.timers.close();
  }

  public settled(): Promise<void> {
    return this.timers.settled();
  }

  /** `config/access`. */
  protected handleOther(r: EngineRequest): EmuResponse | Promise<EmuResponse> {
    if (r.subPath !== 'config/access') return errors(404, 'unsupported path');
    if (r.method === 'GET') return this.readAccess();
    if (r.method === 'POST') return this.writeAccess(objectBody(r.body));
    return errors(405, 'unsupported operation');
  }

  public restore(data: unknown): void {
    const d = data as Partial<MeshTokenState> | undefined;
    this.timers.clearAll();
    this.state = { ...(d?.access ? { access: d.access } : {}), roles: d?.roles ?? {}, leases: d?.leases ?? {} };
    for (const [id, lease] of Object.entries(this.state.leases)) this.scheduleRevocation(id, lease.expiresMs - this.clock.now());
  }

  /** `sys/leases/*` on mesh tokens: revoking one revokes the token on the mesh. */
  public readonly leases: EngineLeases = {
    lookup: (id) => {
      const l = Object.prototype.hasOwnProperty.call(this.state.leases, id) ? this.state.leases[id] : undefined;
      if (!l || l.expiresMs <= this.clock.now()) return undefined;
      return { issuedMs: l.issuedMs ?? l.expiresMs, expiresMs: l.expiresMs, lastRenewalMs: l.renewedMs };
    },
    renew: (id, increment) => {
      if (!this.leases.lookup(id)) return undefined;
      const l = this.state.leases[id];
      const now = this.clock.now();
      l.expiresMs = now + (increment > 0 ? increment : DEFAULT_LEASE_TTL) * 1000;
      l.renewedMs = now;
      this.scheduleRevocation(id, l.expiresMs - now);
      return this.leases.lookup(id);
    },
    revoke: async (id) => {
      if (!this.leases.lookup(id)) return;
      this.timers.clear(id);
      await this.revoke(id);
      if (this.state.leases[id]) throw new RequestError(400, 'failed to revoke entry: the mesh could not be reached');
    },
  };

  private scheduleRevocation(leaseId: string, delayMs: number): void {
    this.timers.set(leaseId, delayMs, () => this.revoke(leaseId));
  }

  /** Lease expiry: revokes the token on the mesh, then forgets the lease. */
  private async revoke(leaseId: string): Promise<void> {
    const lease = this.state.leases[leaseId];
    const a = this.state.access;
    if (!lease || this.closed) return;
    if (a) {
      try {
        await callService(`${a.scheme}://${a.address}/__admin/tokens/${encodeURIComponent(lease.accessor)}`, {
          method: 'DELETE', headers: { 'x-mesh-token': a.token },
        });
      } catch (e) {
        if (!/: 404 /.test((e as Error).message)) {
          this.scheduleRevocation(leaseId, REVOKE_RETRY_MS);
          return;
        }
      }
    }
    delete this.state.leases[leaseId];
  }

  private readAccess(): EmuResponse {
    const a = this.state.access;
    return a ? envelope({ address: a.address, scheme: a.scheme }) : notFound();
  }

  private async writeAccess(b: Record<string, unknown>): Promise<EmuResponse> {
    const address = stringParam(b, 'address');
    if (!address) throw new RequestError(400, 'missing mesh address');
    const scheme = stringParam(b, 'scheme', 'http') || 'http';
    if (scheme !== 'http' && scheme !== 'https') throw new RequestError(400, `scheme must be "http" or "https"`);
    const clientCert = stringParam(b, 'client_cert');
    const clientKey = stringParam(b, 'client_key');
    if (!!clientCert !== !!clientKey) throw new RequestError(400, 'client_cert and client_key must be given together');
    let token = stringParam(b, 'token');
    if (!token) {
      try {
        const res = await callService(`${scheme}://${address}/v1/acl/bootstrap`, { method: 'PUT', headers: {} }) as { SecretID?: string } | undefined;
        if (!res?.SecretID) throw new Error('no SecretID in the answer');
        token = res.SecretID;
      } catch (e) {
        throw new RequestError(400, `Token not provided and failed to bootstrap ACLs: ${(e as Error).message}`);
      }
    }
    this.state.access = { address, scheme, token, caCert: stringParam(b, 'ca_cert'), clientCert, clientKey };
    return noContent();
  }

  protected readRole(_name: string, r: MeshRole): EmuResponse {
    return envelope({
      mesh_policies: r.meshPolicies, mesh_roles: r.meshRoles, service_identities: r.serviceIdentities,
      node_identities: r.nodeIdentities, mesh_namespace: r.meshNamespace, partition: r.partition,
      local: r.local, ttl: r.ttl, max_ttl: r.maxTtl,
      ...(r.tokenType !== undefined ? { token_type: r.tokenType, policy: r.policy ?? '', lease: goDuration(r.lease ?? 0), policies: r.meshPolicies } : {}),
    });
  }

  /** The configured mesh's version, asked once of its agent; undefined before `config/access` or when it cannot say. */
  private async meshVersion(): Promise<string | undefined> {
    const a = this.state.access;
    if (!a) return undefined;
    if (a.version === undefined) {
      try {
        const self = await callService(`${a.scheme}://${a.address}/v1/agent/self`, { method: 'GET', headers: { 'x-mesh-token': a.token } }) as
          { Config?: { Version?: string } } | undefined;
        a.version = self?.Config?.Version ?? '';
      } catch {
        return undefined;
      }
    }
    return a.version || undefined;
  }

  protected async writeRole(name: string, b: Record<string, unknown>, prev: MeshRole | undefined): Promise<EmuResponse> {
    // Refused only where the configured mesh is known to be 1.11 or later; an unknown version takes them (as the service does).
    const known = versionNumber(await this.meshVersion());
    const version = known ?? 1010;
    const given = (f: string) => b[f] !== undefined && b[f] !== null && b[f] !== '';
    if (version >= 1011) {
      for (const f of REMOVED_IN_1_11) {
        if (given(f)) throw new RequestError(400, `"${f}" was removed in mesh 1.11; use mesh_policies, mesh_roles, service_identities or node_identities`);
      }
    }
    const legacy: Pick<MeshRole, 'tokenType' | 'policy' | 'lease'> = {};
    // Kept (and read back) for a mesh known to be older, or when the older parameters are used.
    if (version < 1011 && (known !== undefined || prev?.tokenType !== undefined || REMOVED_IN_1_11.some(given))) {
      const tokenType = stringParam(b, 'token_type', prev?.tokenType ?? 'client') || 'client';
      if (tokenType !== 'client' && tokenType !== 'management') throw new RequestError(400, `invalid token_type "${tokenType}": client or management`);
      const policy = stringParam(b, 'policy', prev?.policy ?? '');
      if (policy && Buffer.from(policy, 'base64').toString('base64').replace(/=+$/, '') !== policy.replace(/=+$/, '')) {
        throw new RequestError(400, 'Error decoding policy base64: illegal base64 data');
      }
      const lease = durationParam(b, 'lease', prev?.lease ?? 0);
      Object.assign(legacy, { tokenType, policy, lease });
    }
    const role: MeshRole = {
      meshPolicies: listParam(b, 'mesh_policies') ?? (version < 1011 ? listParam(b, 'policies') : undefined) ?? prev?.meshPolicies ?? [],
      meshRoles: listParam(b, 'mesh_roles') ?? prev?.meshRoles ?? [],
      serviceIdentities: parseServiceIdentities(b.service_identities) ?? prev?.serviceIdentities ?? [],
      nodeIdentities: listParam(b, 'node_identities') ?? prev?.nodeIdentities ?? [],
      meshNamespace: stringParam(b, 'mesh_namespace', prev?.meshNamespace ?? 'default') || 'default',
      partition: stringParam(b, 'partition', prev?.partition ?? 'default') || 'default',
      local: boolParam(b, 'local', prev?.local ?? false),
      ttl: durationParam(b, 'ttl', given('ttl') ? 0 : (legacy.lease || prev?.ttl || 0)),
      maxTtl: durationParam(b, 'max_ttl', prev?.maxTtl ?? 0),
      ...legacy,
    };
    const legacyGrant = role.tokenType === 'management' || !!role.policy;
    if (!legacyGrant && !role.meshPolicies.length && !role.meshRoles.length && !role.serviceIdentities.length && !role.nodeIdentities.length) {
      throw new RequestError(400, 'Use either a list of policies or roles, or a set of service or node identities');
    }
    for (const s of role.serviceIdentities) {
      const [svc, dcs, extra] = s.split(':');
      if (!svc || extra !== undefined || (dcs !== undefined && dcs.split(',').some((d) => !d.trim()))) {
        throw new RequestError(400, `invalid service identity "${s}": expected <service>:<datacenter>[,<datacenter>]`);
      }
    }
    for (const n of role.nodeIdentities) {
      const parts = n.split(':');
      if (parts.length !== 2 || !parts[0] || !parts[1]) throw new RequestError(400, `invalid node identity "${n}": expected <node>:<datacenter>`);
    }
    if (role.ttl > 0 && role.maxTtl > 0 && role.ttl > role.maxTtl) throw new RequestError(400, 'ttl cannot be greater than max_ttl');
    this.state.roles[name] = role;
    return noContent();
  }

  protected async creds(name: string, role: MeshRole): Promise<EmuResponse> {
    const a = this.state.access;
    if (!a) throw new RequestError(500, `no access configuration: write ${this.mount}/config/access first`);
    let minted: { secretId?: string; accessorId?: string } | undefined;
    try {
      minted = await callService(`${a.scheme}://${a.address}/__admin/tokens`, {
        method: 'POST', headers: { 'x-mesh-token': a.token },
        body: {
          policies: role.tokenType === 'management' ? ['global-management'] : role.meshPolicies,
          roles: role.meshRoles,
          serviceRead: role.serviceIdentities.map((s) => s.split(':')[0]),
          serviceIdentities: role.serviceIdentities,
          nodeIdentities: role.nodeIdentities,
          namespace: role.meshNamespace,
          partition: role.partition,
          checkScopes: true,
          description: `secrets service ${this.mount} role ${name}`,
        },
      }) as typeof minted;
      if (!minted?.secretId) throw new Error('the mesh answered without a token');
    } catch (e) {
      throw new RequestError(500, `error creating the mesh token: ${(e as Error).message}`);
    }
    const ttl = role.ttl || DEFAULT_LEASE_TTL;
    const res = leased({
      token: minted.secretId, accessor: minted.accessorId, local: role.local,
      mesh_namespace: role.meshNamespace, partition: role.partition,
    }, this.mount, name, ttl);
    const leaseId = (res.body as { lease_id: string }).lease_id;
    const expiresMs = this.clock.now() + ttl * 1000;
    this.state.leases[leaseId] = { accessor: minted.accessorId ?? '', expiresMs, issuedMs: this.clock.now() };
    this.scheduleRevocation(leaseId, ttl * 1000);
    return res;
  }
}
