import { createHash, randomUUID } from 'crypto';
import { Clock, SYSTEM_CLOCK } from '../../core/clock';
import { EmuResponse } from '../../core/emulator-kit/types';
import { Engine, EngineRequest, LoginGrant, ownEntry } from '../emulator/engine';
import { boolParam, durationParam, intParam, listParam, stringParam } from '../emulator/field-params';
import { envelope, errors, keyList, noContent, notFound, objectBody, RequestError } from '../emulator/responses';

/** A role as the real service answers it (`GET auth/<mount>/role/<name>`), and its role id. */
interface RoleRecord {
  readonly fields: Record<string, unknown>;
  readonly roleId: string;
}

/** A secret id, kept by its accessor; the secret itself is never stored in clear by the real service, nor here. */
interface SecretIdRecord {
  readonly role: string;
  readonly created: number;
  /** Epoch ms; 0: never. */
  readonly expires: number;
  /** Logins left; 0: unlimited. */
  numUses: number;
  readonly ttl: number;
  /** SHA-256 of the secret id, what a login is checked against (absent in a state saved before logins were served). */
  readonly digest?: string;
}

interface AppRoleState {
  roles: Record<string, RoleRecord>;
  secretIds: Record<string, SecretIdRecord>;
}

const TOKEN_TYPES = ['default', 'service', 'batch'];
/** What the real service answers to any login it refuses (an unknown role id, a wrong, expired or used-up secret id), alike so as to tell nothing. */
const INVALID_LOGIN = 'invalid role or secret ID';

const digestOf = (secretId: string) => createHash('sha256').update(secretId).digest('hex');

/** The role's fields with the real service's defaults. */
function roleFields(b: Record<string, unknown>, was: Record<string, unknown> | undefined): Record<string, unknown> {
  const keep = (name: string, read: () => unknown, dflt: unknown) => (b[name] !== undefined ? read() : was ? was[name] : dflt);
  const tokenType = keep('token_type', () => stringParam(b, 'token_type'), 'default') as string;
  if (!TOKEN_TYPES.includes(tokenType)) throw new RequestError(400, `invalid 'token_type' value "${tokenType}"`);
  return {
    bind_secret_id: keep('bind_secret_id', () => boolParam(b, 'bind_secret_id', true), true),
    local_secret_ids: was?.local_secret_ids ?? false,
    secret_id_bound_cidrs: keep('secret_id_bound_cidrs', () => listParam(b, 'secret_id_bound_cidrs') ?? null, null),
    secret_id_num_uses: keep('secret_id_num_uses', () => intParam(b, 'secret_id_num_uses', 0), 0),
    secret_id_ttl: keep('secret_id_ttl', () => durationParam(b, 'secret_id_ttl', 0), 0),
    token_bound_cidrs: keep('token_bound_cidrs', () => listParam(b, 'token_bound_cidrs') ?? [], []),
    token_explicit_max_ttl: keep('token_explicit_max_ttl', () => durationParam(b, 'token_explicit_max_ttl', 0), 0),
    token_max_ttl: keep('token_max_ttl', () => durationParam(b, 'token_max_ttl', 0), 0),
    token_no_default_policy: keep('token_no_default_policy', () => boolParam(b, 'token_no_default_policy', false), false),
    token_num_uses: keep('token_num_uses', () => intParam(b, 'token_num_uses', 0), 0),
    token_period: keep('token_period', () => durationParam(b, 'token_period', 0), 0),
    token_policies: keep('token_policies', () => (listParam(b, 'token_policies') ?? []).map((p) => p.toLowerCase()), []),
    token_strictly_bind_ip: was?.token_strictly_bind_ip ?? false,
    token_ttl: keep('token_ttl', () => durationParam(b, 'token_ttl', 0), 0),
    token_type: tokenType,
  };
}

/**
 * The AppRole auth method mounted at `auth/<path>`: roles (`role/<name>`, list, read, write, delete),
 * their role id (`role/<name>/role-id`), secret ids (`role/<name>/secret-id` issues one, LIST lists their accessors;
 * `role/<name>/secret-id-accessor/lookup` and `/destroy` by accessor), as OpenBao answers them: a
 * secret id expires after the role's `secret_id_ttl` (0: never); a lookup of an unknown accessor is
 * 404 with `data.error`, a destroy of one 500. `login` with a role id and a live secret id issues
 * the role's token (no caller token needed, as on the real service), using up one of the secret id's uses.
 */
export class AppRoleEngine implements Engine {
  public readonly type = 'approle';
  private state: AppRoleState = { roles: {}, secretIds: {} };

  constructor(private readonly clock: Clock = SYSTEM_CLOCK) {}

  public handle(r: EngineRequest): EmuResponse {
    const path = r.subPath.replace(/\/+$/, '');
    if (path === 'login' && r.issueToken) return this.login(objectBody(r.body), r.issueToken);
    if (path === 'role') return r.method === 'LIST' ? keyList(Object.keys(this.state.roles).sort()) : errors(405, 'unsupported operation');
    const m = /^role\/([^/]+)(?:\/(role-id|secret-id|secret-id-accessor\/lookup|secret-id-accessor\/destroy))?$/.exec(path);
    if (!m) return errors(404, `no handler for route "${r.mount}/${r.subPath}". route entry not found.`);
    const name = m[1].toLowerCase();
    const role = ownEntry(this.state.roles, name);
    const body = objectBody(r.body);
    switch (m[2]) {
      case undefined: return this.role(r.method, name, role, body);
      case 'role-id':
        if (r.method !== 'GET') return errors(405, 'unsupported operation');
        return role ? envelope({ role_id: role.roleId }) : notFound();
      case 'secret-id': {
        if (r.method === 'LIST') {
          return keyList(Object.keys(this.state.secretIds).filter((a) => this.liveSecretId(a, name)).sort());
        }
        if (r.method !== 'POST') return errors(405, 'unsupported operation');
        if (!role) return errors(400, `role "${name}" does not exist`);
        const ttl = role.fields.secret_id_ttl as number;
        const accessor = randomUUID();
        const now = this.clock.now();
        const secretId = randomUUID();
        this.state.secretIds[accessor] = {
          role: name, created: now, expires: ttl ? now + ttl * 1000 : 0, numUses: role.fields.secret_id_num_uses as number, ttl, digest: digestOf(secretId),
        };
        return envelope({ secret_id: secretId, secret_id_accessor: accessor, secret_id_num_uses: role.fields.secret_id_num_uses, secret_id_ttl: ttl });
      }
      default: {
        if (r.method !== 'POST') return errors(405, 'unsupported operation');
        const accessor = stringParam(body, 'secret_id_accessor');
        const found = this.liveSecretId(accessor, name);
        const missing = `failed to find accessor entry for secret_id_accessor: "${accessor}"`;
        if (m[2].endsWith('lookup')) {
          if (!found) return { ...envelope({ error: missing }, 404) };
          return envelope({
            cidr_list: [], creation_time: new Date(found.created).toISOString(),
            expiration_time: found.expires ? new Date(found.expires).toISOString() : '0001-01-01T00:00:00Z',
            last_updated_time: new Date(found.created).toISOString(), metadata: {}, secret_id_accessor: accessor,
            secret_id_num_uses: found.numUses, secret_id_ttl: found.ttl, token_bound_cidrs: [],
          });
        }
        if (!found) return errors(500, missing);
        delete this.state.secretIds[accessor];
        return noContent();
      }
    }
  }

  /** A role's path has an existence check, as on the real service: its first write needs `create`. */
  public exists(subPath: string): boolean | undefined {
    const m = /^role\/([^/]+)\/?$/.exec(subPath);
    return m ? ownEntry(this.state.roles, m[1].toLowerCase()) !== undefined : undefined;
  }

  public snapshot(): unknown {
    return this.state;
  }

  public restore(data: unknown): void {
    const s = data as AppRoleState | undefined;
    this.state = s?.roles ? s : { roles: {}, secretIds: {} };
  }

  /**
   * `login` with `role_id` and `secret_id`: the token the role's `token_*` fields describe. A secret id
   * with uses left loses one, and is gone after its last. Refusals answer as OpenBao 2.7 does: no
   * role_id 500, no secret_id 400, any other 400 with one message.
   */
  private login(b: Record<string, unknown>, issue: (g: LoginGrant) => Record<string, unknown>): EmuResponse {
    const roleId = typeof b.role_id === 'string' ? b.role_id.trim() : '';
    if (!roleId) return errors(500, 'missing role_id');
    const found = Object.entries(this.state.roles).find(([, x]) => x.roleId === roleId);
    const secretId = typeof b.secret_id === 'string' ? b.secret_id.trim() : '';
    const bound = found ? found[1].fields.bind_secret_id !== false : true;
    if (bound && !secretId) return errors(400, 'missing secret_id');
    if (!found) return errors(400, INVALID_LOGIN);
    const [name, role] = found;
    if (bound) {
      const d = digestOf(secretId);
      const accessor = Object.keys(this.state.secretIds).find((a) => this.state.secretIds[a].digest === d && this.liveSecretId(a, name));
      if (!accessor) return errors(400, INVALID_LOGIN);
      const entry = this.state.secretIds[accessor];
      if (entry.numUses === 1) delete this.state.secretIds[accessor];
      else if (entry.numUses > 1) this.state.secretIds[accessor] = { ...entry, numUses: entry.numUses - 1 };
    }
    const f = role.fields;
    const auth = issue({
      policies: f.token_policies as string[], noDefaultPolicy: f.token_no_default_policy === true, ttl: f.token_ttl as number,
      displayName: 'approle', metadata: { role_name: name }, numUses: f.token_num_uses as number,
    });
    const res = envelope(null);
    return { ...res, body: { ...(res.body as object), auth } };
  }

  private liveSecretId(accessor: string, role: string): SecretIdRecord | undefined {
    const s = ownEntry(this.state.secretIds, accessor);
    if (!s || s.role !== role) return undefined;
    if (s.expires && s.expires <= this.clock.now()) {
      delete this.state.secretIds[accessor];
      return undefined;
    }
    return s;
  }

  private role(method: string, name: string, role: RoleRecord | undefined, body: Record<string, unknown>): EmuResponse {
    switch (method) {
      case 'GET': return role ? envelope(role.fields) : notFound();
      case 'POST':
        this.state.roles[name] = { fields: roleFields(body, role?.fields), roleId: role?.roleId ?? randomUUID() };
        return noContent();
      case 'DELETE':
        delete this.state.roles[name];
        for (const [a, s] of Object.entries(this.state.secretIds)) if (s.role === name) delete this.state.secretIds[a];
        return noContent();
      default: return errors(405, 'unsupported operation');
    }
  }
}
