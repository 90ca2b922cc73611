import { Clock, SYSTEM_CLOCK } from '../../core/clock';
import { EmuResponse } from '../../core/emulator-kit/types';
import { Engine, EngineLeases, EngineRequest, ownEntry } from '../emulator/engine';
import { envelope, errors, keyList, noContent, notFound, objectBody, RequestError } from '../emulator/responses';
import { Timers } from '../emulator/timers';
import { DbConnection, DbLease, DbRole, DbState, DbStaticRole, emptyDbState, SYSTEM_MAX_TTL } from './database-model.emulator';
import { bool, duration, list, str, stringMap } from '../shared/weak-params.emulator';
import { defaultPolicyPassword, randomString } from '../shared/passwords.emulator';
import {
  DEFAULT_REVOCATION, DEFAULT_ROOT_ROTATION, DEFAULT_ROTATION, PluginError, POSTGRES_PLUGIN, roleExists, runStatements, verify,
} from './postgres-plugin.emulator';

type Op = (r: EngineRequest, name: string) => EmuResponse | Promise<EmuResponse>;

const MIN_ROTATION_PERIOD = 5;
/** Delay before retrying a revocation or rotation that failed (database down, say). */
const RETRY_MS = 5000;
const MAX_REVOKE_ATTEMPTS = 12;
const CREDENTIAL_TYPES = ['password', 'rsa_private_key'];
/**
 * Names of connections and roles, as the real service's routes take them (`framework.GenericNameRegex`):
 * word characters, with `-` and `.` inside. Any other name matches no route (404 unsupported path).
 */
const NAME = /^\w(?:[\w.-]*\w)?$/;

/** `2006-01-02 15:04:05+0000`, the `{{expiration}}` format of the real plugin (UTC). */
function expirationText(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}+0000`;
}

/**
 * The database engine with the `postgresql-database-plugin` running statements on a real
 * PostgreSQL: connections (`config`), `reset`, `rotate-root`, dynamic `roles` and their leased
 * `creds`, `static-roles` with `static-creds` and `rotate-role`.
 *
 * Where the spec is silent, as the real service does:
 * - A write to an existing connection, role or static role (the `update` capability) keeps the
 *   stored value of every parameter it does not give; a create fills the defaults.
 * - Generated usernames are `v-<token display name, 8 chars>-<role, 8 chars>-<20 random>-<unix time>`, cut to
 *   63 characters (`v-root-…` for the root token, `v-token-…` for an issued one).
 * - A role's `creation_statements` and a `default_ttl` above its `max_ttl` are not checked at write.
 * - A static role's name must be in its connection's `allowed_roles` when it is written, as a dynamic
 *   role's when credentials are requested: 500 `1 error occurred:\n\t* "<role>" is not an allowed role\n\n`.
 * - A connection reads without `verify_connection`; `connection_details.disable_escaping` only when set;
 *   roles and static roles read without `credential_config` when it is empty.
 * - A role without `revocation_statements` is revoked with the plugin's default (revoke privileges
 *   in schema `public`, then `DROP ROLE`); a static role without `rotation_statements` and
 *   rotate-root without `root_rotation_statements` use `ALTER ROLE ... WITH PASSWORD`.
 * - Named password policies are not simulated: passwords follow the default policy.
 * - Names of connections and roles are restricted as the real routes restrict them (`NAME`); values
 *   go into statements quoted (`renderSql`), and a static role's user must exist before its
 *   password is set (500 `... user "<name>" does not appear to exist`).
 * - Creds for an unknown role answer 400 `unknown role: <name>`; rotate-role, static-creds for an
 *   unknown static role 400 likewise; reset and rotate-root of an unknown connection 400.
 * - A failed revocation at lease expiry (database unreachable) is retried every 5 seconds, 12 times at
 *   most; then the lease is dropped (irrevocable).
 * - Deleting a role or connection leaves existing leases to expire (their revocation needs the
 *   connection: with the connection gone the lease is dropped without revocation).
 */
/** Whether a connection's `allowed_roles` lets a role use it (`*`: any). */
function allowedRole(allowed: readonly string[], name: string): boolean {
  return allowed.includes('*') || allowed.includes(name);
}

/** `credential_config` as the real service reads it back: only when it holds something. */
function credentialConfig(c: Record<string, string>): { credential_config?: Record<string, string> } {
  return Object.keys(c).length ? { credential_config: c } : {};
}

/** A message in the real service's multi-error wording (Go's go-multierror), as it answers some errors. */
function multiError(message: string): string {
  return `1 error occurred:\n\t* ${message}\n\n`;
}

export class DatabaseEngine implements Engine {
  public readonly type = 'database';
  private state: DbState = emptyDbState();
  private readonly timers: Timers;
  private readonly revokeAttempts = new Map<string, number>();
  private closed = false;

  /** @param clock what time it is; lease expiries, scheduled rotations and retries wait on it */
  constructor(private readonly clock: Clock = SYSTEM_CLOCK) {
    this.timers = new Timers(clock);
  }

  private readonly routes: Record<string, Record<string, Op>> = {
    config: {
      LIST: () => this.list(this.state.connections), GET: (_r, n) => this.readConnection(n),
      POST: (r, n) => this.writeConnection(r, n), DELETE: (_r, n) => this.deleteConnection(n),
    },
    reset: { POST: (_r, n) => this.reset(n) },
    'rotate-root': { POST: (_r, n) => this.rotateRoot(n) },
    roles: {
      LIST: () => this.list(this.state.roles), GET: (_r, n) => this.readRole(n),
      POST: (r, n) => this.writeRole(r, n), DELETE: (_r, n) => this.deleteRole(n),
    },
    creds: { GET: (r, n) => this.generateCreds(r, n) },
    'static-roles': {
      LIST: () => this.list(this.state.static_roles), GET: (_r, n) => this.readStaticRole(n),
      POST: (r, n) => this.writeStaticRole(r, n), DELETE: (_r, n) => this.deleteStaticRole(n),
    },
    'static-creds': { GET: (_r, n) => this.staticCreds(n) },
    'rotate-role': { POST: (_r, n) => this.rotateRole(n) },
  };

  public async handle(r: EngineRequest): Promise<EmuResponse> {
    const slash = r.subPath.indexOf('/');
    const section = slash < 0 ? r.subPath : r.subPath.slice(0, slash);
    const name = slash < 0 ? '' : r.subPath.slice(slash + 1).replace(/\/$/, '');
    const ops = this.routes[section];
    if (!ops) return errors(404, 'unsupported path');
    // LIST names a collection, every other operation one object.
    if ((r.method === 'LIST') !== (name === '')) return errors(405, 'unsupported operation');
    const op = ops[r.method];
    if (!op) return errors(405, 'unsupported operation');
    if (name !== '' && !NAME.test(name)) return errors(404, 'unsupported path');
    return op(r, name);
  }

  /** Generating credentials opens a lease. */
  /** Connection, role and static-role writes tell `create` from `update`, as the spec says. */
  public exists(subPath: string): boolean | undefined {
    const m = /^(config|roles|static-roles)\/([^/]+)\/?$/.exec(subPath);
    if (!m) return undefined;
    const table = { config: this.state.connections, roles: this.state.roles, 'static-roles': this.state.static_roles }[m[1]]!;
    return Object.prototype.hasOwnProperty.call(table, m[2]);
  }

  public mutatesOnRead(subPath: string): boolean {
    return subPath.startsWith('creds/');
  }

  public snapshot(): unknown {
    return this.state;
  }

  public restore(data: unknown): void {
    this.timers.clearAll();
    this.state = { ...emptyDbState(), ...((data as DbState | undefined) ?? {}) };
    for (const lease of Object.values(this.state.leases)) this.scheduleRevocation(lease);
    for (const name of Object.keys(this.state.static_roles)) this.scheduleRotation(name);
  }

  public close(): void {
    this.closed = true;
    this.timers.close();
  }

  public settled(): Promise<void> {
    return this.timers.settled();
  }

  private list(items: Record<string, unknown>): EmuResponse {
    const keys = Object.keys(items).sort();
    return keyList(keys);
  }

  // ---- connections

  private readConnection(name: string): EmuResponse {
    const c = this.state.connections[name];
    if (!c) return notFound();
    return envelope({
      allowed_roles: c.allowed_roles,
      // As the real service: `disable_escaping` shows among the details only when set; `verify_connection` never.
      connection_details: { connection_url: c.connection_url, ...(c.disable_escaping ? { disable_escaping: true } : {}), username: c.username },
      password_policy: c.password_policy,
      plugin_name: c.plugin_name,
      plugin_version: c.plugin_version,
      root_credentials_rotate_statements: c.root_rotation_statements,
    });
  }

  private async writeConnection(r: EngineRequest, name: string): Promise<EmuResponse> {
    const b = objectBody(r.body);
    const old = this.state.connections[name];
    const plugin = str(b, 'plugin_name') ?? old?.plugin_name ?? '';
    if (!plugin) throw new RequestError(400, 'plugin_name must be specified');
    if (plugin !== POSTGRES_PLUGIN) {
      throw new RequestError(400, `error creating database object: unknown plugin "${plugin}": plugin not found in the catalog`);
    }
    const c: DbConnection = {
      plugin_name: plugin,
      plugin_version: str(b, 'plugin_version') ?? old?.plugin_version ?? '',
      verify_connection: bool(b, 'verify_connection') ?? true,
      allowed_roles: list(b, 'allowed_roles') ?? old?.allowed_roles ?? [],
      root_rotation_statements: list(b, 'root_rotation_statements') ?? old?.root_rotation_statements ?? [],
      password_policy: str(b, 'password_policy') ?? old?.password_policy ?? '',
      connection_url: str(b, 'connection_url') ?? old?.connection_url ?? '',
      username: str(b, 'username') ?? old?.username ?? '',
      password: str(b, 'password') ?? old?.password ?? '',
      disable_escaping: bool(b, 'disable_escaping') ?? old?.disable_escaping ?? false,
    };
    if (!c.connection_url) throw new RequestError(400, 'error creating database object: connection_url cannot be empty');
    if (c.verify_connection) {
      try {
        await verify(c);
      } catch (e) {
        throw new RequestError(400, `error creating database object: ${(e as Error).message}`);
      }
    }
    this.state.connections[name] = c;
    return noContent();
  }

  private deleteConnection(name: string): EmuResponse {
    delete this.state.connections[name];
    return noContent();
  }

  private connection(name: string): DbConnection {
    const c = this.state.connections[name];
    if (!c) throw new RequestError(400, `unknown database connection "${name}"`);
    return c;
  }

  /** Closes and reopens the plugin from the stored configuration: the next statement connects afresh. */
  private async reset(name: string): Promise<EmuResponse> {
    const c = this.connection(name);
    if (c.verify_connection) {
      try {
        await verify(c);
      } catch (e) {
        throw new RequestError(500, `failed to reset database connection: ${(e as Error).message}`);
      }
    }
    return noContent();
  }

  private async rotateRoot(name: string): Promise<EmuResponse> {
    const c = this.connection(name);
    if (!c.username) throw new RequestError(400, 'unable to rotate root credentials: no username in configuration');
    const password = this.newPassword(c.password_policy);
    const statements = c.root_rotation_statements.length ? c.root_rotation_statements : DEFAULT_ROOT_ROTATION;
    try {
      await runStatements(c, statements, { name: c.username, username: c.username, password });
    } catch (e) {
      throw new RequestError(500, `failed to update user: ${(e as Error).message}`);
    }
    c.password = password;
    return noContent();
  }

  private newPassword(policy: string): string {
    void policy; // named policies are not simulated (see the class comment)
    return defaultPolicyPassword();
  }

  // ---- dynamic roles

  private readRole(name: string): EmuResponse {
    const role = this.state.roles[name];
    if (!role) return notFound();
    return envelope({
      creation_statements: role.creation_statements, revocation_statements: role.revocation_statements,
      rollback_statements: role.rollback_statements, renew_statements: role.renew_statements,
      credential_type: role.credential_type, ...credentialConfig(role.credential_config),
      db_name: role.db_name, default_ttl: role.default_ttl, max_ttl: role.max_ttl,
    });
  }

  private writeRole(r: EngineRequest, name: string): EmuResponse {
    const b = objectBody(r.body);
    const old = this.state.roles[name];
    const role: DbRole = {
      db_name: str(b, 'db_name') ?? old?.db_name ?? '',
      default_ttl: duration(b, 'default_ttl') ?? old?.default_ttl ?? 0,
      max_ttl: duration(b, 'max_ttl') ?? old?.max_ttl ?? 0,
      creation_statements: list(b, 'creation_statements') ?? old?.creation_statements ?? [],
      revocation_statements: list(b, 'revocation_statements') ?? old?.revocation_statements ?? [],
      rollback_statements: list(b, 'rollback_statements') ?? old?.rollback_statements ?? [],
      renew_statements: list(b, 'renew_statements') ?? old?.renew_statements ?? [],
      credential_type: str(b, 'credential_type') ?? old?.credential_type ?? 'password',
      credential_config: stringMap(b, 'credential_config') ?? old?.credential_config ?? {},
    };
    if (!role.db_name) throw new RequestError(400, 'empty database name attribute');
    checkCredentialType(role.credential_type);
    if (role.max_ttl > SYSTEM_MAX_TTL) throw new RequestError(400, `max_ttl cannot be greater than the mount's maximum (${SYSTEM_MAX_TTL} seconds)`);
    this.state.roles[name] = role;
    return noContent();
  }

  private deleteRole(name: string): EmuResponse {
    delete this.state.roles[name];
    return noContent();
  }

  private async generateCreds(r: EngineRequest, name: string): Promise<EmuResponse> {
    const role = this.state.roles[name];
    if (!role) throw new RequestError(400, `unknown role: ${name}`);
    const conn = this.state.connections[role.db_name];
    if (!conn) throw new RequestError(500, `could not find database connection "${role.db_name}"`);
    if (!allowedRole(conn.allowed_roles, name)) throw new RequestError(500, multiError(`"${name}" is not an allowed role`));
    if (role.credential_type !== 'password') {
      throw new RequestError(500, `unsupported credential_type "${role.credential_type}" for ${POSTGRES_PLUGIN}`);
    }
    const maxTtl = role.max_ttl || SYSTEM_MAX_TTL;
    const ttl = Math.min(role.default_ttl || SYSTEM_MAX_TTL, maxTtl);
    const username = `v-${(r.displayName ?? 'root').slice(0, 8)}-${name.slice(0, 8)}-${randomString(20)}-${Math.floor(this.clock.now() / 1000)}`.slice(0, 63);
    const password = this.newPassword(role.credential_config.password_policy ?? conn.password_policy);
    const expiresMs = this.clock.now() + ttl * 1000;
    const values = { name: username, username, password, expiration: expirationText(expiresMs) };
    try {
      await runStatements(conn, role.creation_statements, values);
    } catch (e) {
      if (role.rollback_statements.length) await runStatements(conn, role.rollback_statements, values).catch(() => undefined);
      throw new RequestError(500, `failed to create user: ${(e as Error).message}`);
    }
    const lease: DbLease = {
      id: `${r.mount}/creds/${name}/${randomString(24)}`, role: name, db_name: role.db_name, username,
      revocation_statements: role.revocation_statements, expires_ms: expiresMs, issued_ms: expiresMs - ttl * 1000,
    };
    this.state.leases[lease.id] = lease;
    this.scheduleRevocation(lease);
    const res = envelope({ username, password });
    return { ...res, body: { ...(res.body as object), lease_id: lease.id, lease_duration: ttl, renewable: true } };
  }

  /** `sys/leases/*` on this engine's leases: a revocation runs the role's revocation statements now. */
  public readonly leases: EngineLeases = {
    lookup: (id) => {
      const l = ownEntry(this.state.leases, id);
      if (!l || l.expires_ms <= this.clock.now()) return undefined;
      return { issuedMs: l.issued_ms ?? l.expires_ms, expiresMs: l.expires_ms, lastRenewalMs: l.renewed_ms };
    },
    renew: (id, increment) => {
      const l = ownEntry(this.state.leases, id);
      const now = this.clock.now();
      if (!l || l.expires_ms <= now) return undefined;
      const role = ownEntry(this.state.roles, l.role);
      const maxTtl = role?.max_ttl || SYSTEM_MAX_TTL;
      const ttl = increment > 0 ? increment : role?.default_ttl || SYSTEM_MAX_TTL;
      l.expires_ms = Math.min(now + ttl * 1000, (l.issued_ms ?? now) + maxTtl * 1000);
      l.renewed_ms = now;
      this.scheduleRevocation(l);
      return this.leases.lookup(id);
    },
    revoke: async (id) => {
      const l = ownEntry(this.state.leases, id);
      if (!l) return;
      const conn = ownEntry(this.state.connections, l.db_name);
      // As the real service: without its connection a lease cannot be revoked (it stays, and is tried again at expiry).
      if (!conn) throw new RequestError(400, `failed to revoke entry: resp: (*logical.Response)(nil) err: failed to find entry for connection with name: "${l.db_name}"`);
      const statements = l.revocation_statements.length ? l.revocation_statements : DEFAULT_REVOCATION;
      try {
        await runStatements(conn, statements, { name: l.username, username: l.username });
      } catch (e) {
        throw new RequestError(400, `failed to revoke entry: ${(e as Error).message}`);
      }
      this.timers.clear(`lease:${id}`);
      delete this.state.leases[id];
      this.revokeAttempts.delete(id);
    },
  };

  private scheduleRevocation(lease: DbLease): void {
    this.timers.set(`lease:${lease.id}`, lease.expires_ms - this.clock.now(), () => this.revoke(lease.id));
  }

  /** Lease expiry: runs the role's revocation statements, then forgets the lease. */
  private async revoke(id: string): Promise<void> {
    const lease = this.state.leases[id];
    if (!lease || this.closed) return;
    const conn = this.state.connections[lease.db_name];
    if (conn) {
      const statements = lease.revocation_statements.length ? lease.revocation_statements : DEFAULT_REVOCATION;
      try {
        await runStatements(conn, statements, { name: lease.username, username: lease.username });
      } catch (e) {
        if (!(e instanceof PluginError) || this.closed) return;
        const attempts = (this.revokeAttempts.get(id) ?? 0) + 1;
        this.revokeAttempts.set(id, attempts);
        // Like the real service, give up after a bounded number of attempts (the lease becomes irrevocable).
        if (attempts < MAX_REVOKE_ATTEMPTS) {
          this.timers.set(`lease:${id}`, RETRY_MS, () => this.revoke(id));
          return;
        }
      }
    }
    delete this.state.leases[id];
    this.revokeAttempts.delete(id);
  }

  // ---- static roles

  private readStaticRole(name: string): EmuResponse {
    const s = this.state.static_roles[name];
    if (!s) return notFound();
    return envelope({
      credential_type: s.credential_type, ...credentialConfig(s.credential_config), db_name: s.db_name,
      username: s.username, rotation_statements: s.rotation_statements, rotation_period: s.rotation_period,
      last_service_rotation: new Date(s.last_rotation_ms).toISOString(),
    });
  }

  private async writeStaticRole(r: EngineRequest, name: string): Promise<EmuResponse> {
    const b = objectBody(r.body);
    const old = this.state.static_roles[name];
    const username = str(b, 'username');
    if (old && username !== undefined && username !== old.username) throw new RequestError(400, 'cannot update static account username');
    const s: DbStaticRole = {
      db_name: str(b, 'db_name') ?? old?.db_name ?? '',
      username: username ?? old?.username ?? '',
      rotation_period: duration(b, 'rotation_period') ?? old?.rotation_period ?? 0,
      rotation_statements: list(b, 'rotation_statements') ?? old?.rotation_statements ?? [],
      credential_type: str(b, 'credential_type') ?? old?.credential_type ?? 'password',
      credential_config: stringMap(b, 'credential_config') ?? old?.credential_config ?? {},
      password: old?.password ?? '',
      last_rotation_ms: old?.last_rotation_ms ?? 0,
    };
    if (!s.username) throw new RequestError(400, 'username is a required field to create a static account');
    if (!s.db_name) throw new RequestError(400, 'empty database name attribute');
    if (!s.rotation_period) throw new RequestError(400, 'rotation_period is required to create static accounts');
    if (s.rotation_period < MIN_ROTATION_PERIOD) {
      throw new RequestError(400, `rotation_period must be ${MIN_ROTATION_PERIOD} seconds or more`);
    }
    checkCredentialType(s.credential_type);
    const conn = this.state.connections[s.db_name];
    if (!conn) throw new RequestError(400, `could not find database connection "${s.db_name}"`);
    // As the real service: the role's name must be allowed by its connection when it is written.
    if (!allowedRole(conn.allowed_roles, name)) throw new RequestError(500, multiError(`"${name}" is not an allowed role`));
    if (!old) {
      // Rotated at creation: the role exists only once the database user has a password known to the engine.
      await this.rotateStatic(name, s);
    }
    this.state.static_roles[name] = s;
    this.scheduleRotation(name);
    return noContent();
  }

  private deleteStaticRole(name: string): EmuResponse {
    delete this.state.static_roles[name];
    this.timers.clear(`static:${name}`);
    return noContent();
  }

  private staticCreds(name: string): EmuResponse {
    const s = this.state.static_roles[name];
    if (!s) throw new RequestError(400, `unknown role: ${name}`);
    const ttl = Math.max(0, Math.round((s.last_rotation_ms + s.rotation_period * 1000 - this.clock.now()) / 1000));
    return envelope({
      username: s.username, password: s.password, last_service_rotation: new Date(s.last_rotation_ms).toISOString(),
      rotation_period: s.rotation_period, ttl,
    });
  }

  private async rotateRole(name: string): Promise<EmuResponse> {
    const s = this.state.static_roles[name];
    if (!s) throw new RequestError(400, `unknown static role: ${name}`);
    await this.rotateStatic(name, s);
    this.scheduleRotation(name);
    return noContent();
  }

  /** Sets a new password on the database user; the stored one changes only when the database took it. */
  private async rotateStatic(name: string, s: DbStaticRole): Promise<void> {
    const conn = this.connection(s.db_name);
    const password = this.newPassword(s.credential_config.password_policy ?? conn.password_policy);
    const statements = s.rotation_statements.length ? s.rotation_statements : DEFAULT_ROTATION;
    try {
      // The user is external: it must exist (statements for a missing one would create nothing or fail obscurely).
      if (!await roleExists(conn, s.username)) throw new PluginError(`user "${s.username}" does not appear to exist`);
      await runStatements(conn, statements, { name: s.username, username: s.username, password });
    } catch (e) {
      throw new RequestError(500, `error setting credentials for static role "${name}": ${(e as Error).message}`);
    }
    s.password = password;
    s.last_rotation_ms = this.clock.now();
  }

  private scheduleRotation(name: string): void {
    const s = this.state.static_roles[name];
    if (!s) return;
    const due = s.last_rotation_ms + s.rotation_period * 1000 - this.clock.now();
    this.timers.set(`static:${name}`, due, () => this.rotateOnSchedule(name));
  }

  private async rotateOnSchedule(name: string): Promise<void> {
    const s = this.state.static_roles[name];
    if (!s || this.closed) return;
    try {
      await this.rotateStatic(name, s);
      this.scheduleRotation(name);
    } catch {
      this.timers.set(`static:${name}`, RETRY_MS, () => this.rotateOnSchedule(name));
    }
  }
}

function checkCredentialType(t: string): void {
  if (!CREDENTIAL_TYPES.includes(t)) {
    throw new RequestError(400, `invalid credential_type "${t}": must be one of ${CREDENTIAL_TYPES.join(', ')}`);
  }
}
