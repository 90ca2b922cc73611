import { EmuResponse } from '../../core/emulator-kit/types';
import { EngineLeases, EngineRequest } from '../emulator/engine';
import { durationParam, stringParam } from '../emulator/field-params';
import { DEFAULT_LEASE_TTL, leased } from '../emulator/leases';
import { callService } from '../emulator/outbound';
import { envelope, errors, noContent, notFound, objectBody, RequestError } from '../emulator/responses';
import { RoleEngine } from '../shared/role-engine.emulator';

interface PlatformConfig {
  address: string;
  basePath: string;
  token: string;
}

interface PlatformRole {
  name: string;
  organization: string;
  teamId: string;
  userId: string;
  ttl: number;
  maxTtl: number;
  /** The stored token of an organization or team role (until rotated). */
  token?: string;
  tokenId?: string;
}

interface PlatformTokenState {
  config?: PlatformConfig;
  roles: Record<string, PlatformRole>;
  /** Leases of user roles' tokens: lease id -> when issued and when it ends (epoch ms). */
  leases?: Record<string, { issuedMs: number; expiresMs: number; renewedMs?: number }>;
}

const DEFAULT_ADDRESS = 'https://app.terraform.io';

/**
 * The platform-token engine: `config`, `role/<name>`, `creds/<name>`, `rotate-role/<name>`.
 *
 * Tokens are minted on the platform at the configured `address` through the platform
 * emulator's admin interface (`POST /__admin/tokens`), authenticated by the configured
 * `token`, which must therefore be the platform emulator's administrator token. Organization
 * and team tokens are bound to the administrator user (`admin`) and to `organization`; user
 * tokens to `user_id` (a user id or username); team tokens to the team `team_id` (a team of the
 * platform emulator, `POST /__admin/organizations/<org>/teams`), whose organization the platform
 * knows. A platform that cannot be reached or refuses answers 500 with its error.
 *
 * As the real service does, where the spec is silent:
 * - Config read answers `address` and `base_path` (`/api/v2/`), never the token; 404 before any write.
 * - A role needs one of `organization`, `team_id`, `user_id`; `user_id` with either of the others: 400.
 *   `ttl` above `max_ttl` (both set): 400. Writing a role keeps its stored token unless the
 *   organization or team changes.
 * - Organization and team creds answer `token`, `token_id` (and `organization`, `team_id`) with
 *   no lease; user creds a lease `<mount>/creds/<role>/<id>` of the role's `ttl` (768h when unset).
 * - Creds or rotate-role of an absent role: 400 `role "<name>" not found`; rotate-role of a
 *   user role: 400 "cannot rotate credentials for user roles"; rotate-role answers 204.
 * - An organization or a team has one active token: minting a new one (a rotation) revokes the
 *   earlier one on the platform, whose emulator then answers it 401.
 */
export class PlatformTokenEngine extends RoleEngine<PlatformRole, PlatformTokenState> {
  public readonly type = 'platform';
  protected state: PlatformTokenState = { roles: {} };

  constructor(mount: string) {
    super(mount, 'role', ['GET', 'POST']);
  }

  /** `config` and `rotate-role/<name>`. */
  protected handleOther(r: EngineRequest): EmuResponse | Promise<EmuResponse> {
    const m = /^(config|rotate-role)(?:\/(.*))?$/.exec(r.subPath);
    if (!m) return errors(404, 'unsupported path');
    const [, section, raw = ''] = m;
    const name = raw.replace(/\/$/, '');
    if (section === 'config') {
      if (name !== '') return errors(404, 'unsupported path');
      if (r.method === 'GET') return this.readConfig();
      if (r.method === 'POST') return this.writeConfig(objectBody(r.body));
      if (r.method === 'DELETE') { delete this.state.config; return noContent(); }
      return errors(405, 'unsupported operation');
    }
    if (name === '' || name.includes('/')) return errors(404, 'unsupported path');
    return r.method === 'POST' ? this.rotate(name) : errors(405, 'unsupported operation');
  }

  public restore(data: unknown): void {
    const d = data as Partial<PlatformTokenState> | undefined;
    this.state = { ...(d?.config ? { config: d.config } : {}), roles: d?.roles ?? {}, ...(d?.leases ? { leases: d.leases } : {}) };
  }

  private readConfig(): EmuResponse {
    const c = this.state.config;
    return c ? envelope({ address: c.address, base_path: c.basePath }) : notFound();
  }

  private writeConfig(b: Record<string, unknown>): EmuResponse {
    const prev = this.state.config;
    this.state.config = {
      address: stringParam(b, 'address', prev?.address ?? DEFAULT_ADDRESS) || DEFAULT_ADDRESS,
      basePath: stringParam(b, 'base_path', prev?.basePath ?? '/api/v2/') || '/api/v2/',
      token: stringParam(b, 'token', prev?.token ?? ''),
    };
    return noContent();
  }

  protected readRole(_name: string, r: PlatformRole): EmuResponse {
    return envelope({
      name: r.name,
      ...(r.organization ? { organization: r.organization } : {}),
      ...(r.teamId ? { team_id: r.teamId } : {}),
      ...(r.userId ? { user_id: r.userId } : {}),
      ttl: r.ttl, max_ttl: r.maxTtl,
    });
  }

  protected writeRole(name: string, b: Record<string, unknown>, prev: PlatformRole | undefined): EmuResponse {
    const organization = stringParam(b, 'organization', prev?.organization ?? '');
    const teamId = stringParam(b, 'team_id', prev?.teamId ?? '');
    const userId = stringParam(b, 'user_id', prev?.userId ?? '');
    const ttl = durationParam(b, 'ttl', prev?.ttl ?? 0);
    const maxTtl = durationParam(b, 'max_ttl', prev?.maxTtl ?? 0);
    if (userId && (organization || teamId)) throw new RequestError(400, 'user_id cannot be provided with organization or team_id');
    if (!userId && !organization && !teamId) throw new RequestError(400, 'one of organization, team_id or user_id is required');
    if (ttl > 0 && maxTtl > 0 && ttl > maxTtl) throw new RequestError(400, 'ttl cannot be greater than max_ttl');
    const sameTarget = prev && prev.organization === organization && prev.teamId === teamId && prev.userId === userId;
    this.state.roles[name] = {
      name, organization, teamId, userId, ttl, maxTtl,
      ...(sameTarget && prev.token ? { token: prev.token, tokenId: prev.tokenId } : {}),
    };
    return noContent();
  }

  /** `sys/leases/*` on user roles' tokens (revoking one forgets the lease; the platform token lives until it expires there). */
  public readonly leases: EngineLeases = {
    lookup: (id) => {
      const l = this.state.leases && Object.prototype.hasOwnProperty.call(this.state.leases, id) ? this.state.leases[id] : undefined;
      return l && l.expiresMs > Date.now() ? { issuedMs: l.issuedMs, expiresMs: l.expiresMs, lastRenewalMs: l.renewedMs } : undefined;
    },
    renew: (id, increment) => {
      if (!this.leases.lookup(id)) return undefined;
      const l = this.state.leases![id];
      l.renewedMs = Date.now();
      l.expiresMs = l.renewedMs + (increment > 0 ? increment : DEFAULT_LEASE_TTL) * 1000;
      return this.leases.lookup(id);
    },
    revoke: async (id) => {
      if (this.state.leases) delete this.state.leases[id];
    },
  };

  protected async creds(name: string, role: PlatformRole): Promise<EmuResponse> {
    if (role.userId) {
      const t = await this.mint(role);
      const ttl = role.ttl || DEFAULT_LEASE_TTL;
      const res = leased({ token: t.token, token_id: t.id }, this.mount, name, ttl);
      const now = Date.now();
      this.state.leases = { ...(this.state.leases ?? {}), [(res.body as { lease_id: string }).lease_id]: { issuedMs: now, expiresMs: now + ttl * 1000 } };
      return res;
    }
    if (!role.token) {
      const t = await this.mint(role);
      role.token = t.token;
      role.tokenId = t.id;
    }
    return envelope({
      token: role.token, token_id: role.tokenId,
      ...(role.organization ? { organization: role.organization } : {}),
      ...(role.teamId ? { team_id: role.teamId } : {}),
    });
  }

  private async rotate(name: string): Promise<EmuResponse> {
    const role = this.role(name);
    if (!role) throw new RequestError(400, `role "${name}" not found`);
    if (role.userId) throw new RequestError(400, 'cannot rotate credentials for user roles');
    const t = await this.mint(role);
    role.token = t.token;
    role.tokenId = t.id;
    return noContent();
  }

  /** A new token on the configured platform (through its emulator's admin interface); 500 on failure. */
  private async mint(role: PlatformRole): Promise<{ token: string; id: string }> {
    const c = this.state.config;
    if (!c) throw new RequestError(500, `no configuration: write ${this.mount}/config first`);
    const kind = role.userId ? 'user' : role.teamId ? 'team' : 'organization';
    const body = role.userId ? { kind, user: role.userId }
      : role.teamId ? { kind, user: 'admin', team: role.teamId, ...(role.organization ? { organization: role.organization } : {}) }
        : { kind, user: 'admin', organization: role.organization };
    try {
      const res = await callService(`${c.address.replace(/\/+$/, '')}/__admin/tokens`, {
        method: 'POST', headers: { authorization: `Bearer ${c.token}` }, body,
      }) as { token?: string; id?: string } | undefined;
      if (!res?.token || !res.id) throw new Error('the platform answered without a token');
      return { token: res.token, id: res.id };
    } catch (e) {
      throw new RequestError(500, `error creating the ${kind} token: ${(e as Error).message}`);
    }
  }
}
