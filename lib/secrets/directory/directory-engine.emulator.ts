import { createHash, randomBytes } from 'crypto';
import { Clock, SYSTEM_CLOCK } from '../../core/clock';
import { EmuResponse, json } from '../../core/emulator-kit/types';
import { Engine, EngineLeases, EngineRequest } from '../emulator/engine';
import { bool, duration, list, str } from '../shared/weak-params.emulator';
import { DEFAULT_LEASE_TTL as SYSTEM_MAX_TTL } from '../emulator/leases';
import { envelope, errors, keyList, noContent, notFound, objectBody, RequestError } from '../emulator/responses';
import { Timers } from '../emulator/timers';
import {
  checkPasswordSettings, DirAccount, DirCheckOut, DirConfig, DirRole, DirSet, DirState, emptyDirState, generatePassword,
} from './directory-model.emulator';

type Op = (r: EngineRequest, rest: string) => EmuResponse | Promise<EmuResponse>;

const DAY = 24 * 3600;
const NO_ACCOUNT = 'No service accounts available for check-out.';

/** The caller as the library knows it: a hash of its token (the token itself is never kept). */
function borrower(r: EngineRequest): string {
  return createHash('sha256').update(r.req.headers['x-secrets-token'] ?? '').digest('hex').slice(0, 32);
}

/**
 * The directory engine over a simulated directory of service accounts: `config`, `roles` and
 * `creds` (rotated once `ttl` has passed), the `library` of service accounts (check-out, check-in,
 * manage check-in, status, automatic check-in when the lease expires), `rotate-root` and
 * `rotate-role`.
 *
 * The simulated directory is seeded through the emulator's admin interface
 * (`/__admin/directory/<mount>/accounts`, see `admin()`). The engine binds to it as `binddn` with
 * `bindpass`: every operation that reads or changes the directory needs the bind account to
 * exist there with that password (500 `LDAP Result Code 49 "Invalid Credentials"` otherwise),
 * as a real directory would; writing the configuration does not check it (as the spec says).
 *
 * Where the spec is silent, as the real service does:
 * - A write of an existing configuration keeps the parameters it does not give (so `bindpass`
 *   need not be re-sent); giving `password_policy` clears a stored `length`/`formatter` and the reverse.
 * - `ttl` and `max_ttl` default to the system's 768h; the library's to 24h.
 * - A rotation takes `rotation_delay_ms` (admin setting, default 0); a second rotation of the same
 *   credential meanwhile answers 200 with a warning and does nothing.
 * - Library check-out returns the password the engine last set (rotating first when it never
 *   set one); check-in, manual or at lease expiry, rotates the password so that the borrower's copy
 *   stops working. Lease ids are `<mount>/library/<set>/check-out/<random>`.
 * - `borrower_client_token` in the status is a hash of the borrower's token; `borrower_entity_id`
 *   is empty (tokens of the emulator have no entity).
 * - A set cannot drop or delete an account that is checked out (400).
 */
export class DirectoryEngine implements Engine {
  public readonly type = 'directory';
  private state: DirState = emptyDirState();
  private readonly timers: Timers;
  private readonly rotating = new Set<string>();

  /** @param clock what time it is; rotations take their delay on it, check-outs expire on it */
  constructor(private readonly clock: Clock = SYSTEM_CLOCK) {
    this.timers = new Timers(clock);
  }

  private readonly routes: Record<string, Record<string, Op>> = {
    config: { GET: () => this.readConfig(), POST: (r) => this.writeConfig(r), DELETE: () => this.deleteConfig() },
    roles: {
      LIST: () => this.list(this.state.roles), GET: (_r, n) => (n ? this.readRole(n) : this.list(this.state.roles)),
      POST: (r, n) => this.writeRole(r, n), DELETE: (_r, n) => this.deleteRole(n),
    },
    creds: { GET: (_r, n) => this.creds(n) },
    'rotate-root': { GET: () => this.rotateRoot(), POST: () => this.rotateRoot() },
    'rotate-role': { POST: (_r, n) => this.rotateRole(n) },
    library: {
      LIST: () => this.list(this.state.sets), GET: (_r, rest) => this.libraryGet(rest),
      POST: (r, rest) => this.libraryPost(r, rest), DELETE: (_r, n) => this.deleteSet(n),
    },
  };

  public handle(r: EngineRequest): EmuResponse | Promise<EmuResponse> {
    const slash = r.subPath.indexOf('/');
    const section = slash < 0 ? r.subPath : r.subPath.slice(0, slash);
    const rest = slash < 0 ? '' : r.subPath.slice(slash + 1).replace(/\/$/, '');
    const ops = this.routes[section];
    if (!ops) return errors(404, 'unsupported path');
    const op = ops[r.method];
    if (!op) return errors(405, 'unsupported operation');
    const bare = section === 'config' || section === 'rotate-root';
    if (bare && rest !== '') return errors(404, 'unsupported path');
    if (!bare && r.method !== 'LIST' && !(section === 'roles' && r.method === 'GET') && rest === '') {
      return errors(405, 'unsupported operation');
    }
    if (r.method === 'LIST' && rest !== '') return errors(405, 'unsupported operation');
    return op(r, rest);
  }

  /** Reading credentials may rotate them; GET rotate-root rotates. */
  public mutatesOnRead(subPath: string): boolean {
    return subPath.startsWith('creds/') || subPath.replace(/\/$/, '') === 'rotate-root';
  }

  public snapshot(): unknown {
    return this.state;
  }

  public restore(data: unknown): void {
    this.timers.clearAll();
    this.state = { ...emptyDirState(), ...((data as DirState | undefined) ?? {}) };
    for (const [account, c] of Object.entries(this.state.checkouts)) this.scheduleCheckIn(account, c);
  }

  public close(): void {
    this.timers.close();
  }

  public settled(): Promise<void> {
    return this.timers.settled();
  }

  /**
   * Admin interface below `/__admin/directory/<mount>/`:
   * - `GET accounts` -> `{"accounts":{"<name>":{"password_last_set":"<time>"}}}`
   * - `GET accounts/<name>` -> `{"name","password","password_last_set"}` (404 when absent)
   * - `POST accounts/<name>` with `{"password":"…"}` (optional; random when absent) -> 204: creates the
   *   account or sets its password as someone outside the service would
   * - `DELETE accounts/<name>` -> 204
   * - `GET settings` / `POST settings` with `{"rotation_delay_ms":300}` -> how long a rotation takes
   */
  public admin(method: string, subPath: string, body: unknown): EmuResponse {
    const m = /^accounts(?:\/(.+))?$/.exec(subPath);
    if (m) {
      const name = m[1];
      if (!name) {
        if (method !== 'GET') return errors(405, 'unsupported operation');
        const accounts: Record<string, { password_last_set: string }> = {};
        for (const [n, a] of Object.entries(this.state.accounts)) accounts[n] = { password_last_set: new Date(a.password_last_set_ms).toISOString() };
        return json(200, { accounts });
      }
      const a = this.state.accounts[name];
      if (method === 'GET') {
        return a ? json(200, { name, password: a.password, password_last_set: new Date(a.password_last_set_ms).toISOString() }) : notFound();
      }
      if (method === 'POST' || method === 'PUT') {
        const password = str(objectBody(body), 'password') ?? randomBytes(18).toString('base64url');
        this.state.accounts[name] = { password, password_last_set_ms: this.clock.now() };
        return noContent();
      }
      if (method === 'DELETE') {
        delete this.state.accounts[name];
        return noContent();
      }
      return errors(405, 'unsupported operation');
    }
    if (subPath === 'settings') {
      if (method === 'GET') return json(200, { rotation_delay_ms: this.state.rotation_delay_ms });
      if (method !== 'POST' && method !== 'PUT') return errors(405, 'unsupported operation');
      const ms = objectBody(body).rotation_delay_ms;
      if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0) return errors(400, 'rotation_delay_ms must be a non-negative integer');
      this.state.rotation_delay_ms = ms;
      return noContent();
    }
    return notFound();
  }

  private list(items: Record<string, unknown>): EmuResponse {
    const keys = Object.keys(items).sort();
    return keyList(keys);
  }

  // ---- the simulated directory

  private config(): DirConfig {
    if (!this.state.config) throw new RequestError(400, 'the config is currently unset');
    return this.state.config;
  }

  /** Binds as the configured account: the directory must know it with that password. */
  private bind(): DirConfig {
    const c = this.config();
    const a = this.state.accounts[c.binddn];
    if (!a || a.password !== c.bindpass) throw new RequestError(500, 'failed to bind to the directory: LDAP Result Code 49 "Invalid Credentials"');
    return c;
  }

  private account(name: string): DirAccount {
    this.bind();
    const a = this.state.accounts[name];
    if (!a) throw new RequestError(400, `unable to find service account "${name}" in the directory`);
    return a;
  }

  /**
   * Runs one rotation of `key` taking the configured delay; answers 200 with a warning instead
   * when one of the same key is already under way.
   */
  private async rotation(key: string, what: string, fn: () => void): Promise<EmuResponse> {
    if (this.rotating.has(key)) return envelope(null, 200, [`rotation of ${what} is already in progress; try again later`]);
    this.rotating.add(key);
    try {
      if (this.state.rotation_delay_ms > 0) await this.clock.sleep(this.state.rotation_delay_ms);
      fn();
    } finally {
      this.rotating.delete(key);
    }
    return noContent();
  }

  private setPassword(account: string, password: string): void {
    const a = this.account(account);
    a.password = password;
    a.password_last_set_ms = this.clock.now();
  }

  // ---- config

  private readConfig(): EmuResponse {
    const c = this.state.config;
    if (!c) return notFound();
    return envelope({
      binddn: c.binddn, certificate: c.certificate, insecure_tls: c.insecure_tls,
      length: c.length || (c.password_policy ? 0 : 64), formatter: c.formatter, password_policy: c.password_policy,
      max_ttl: c.max_ttl, ttl: c.ttl, starttls: c.starttls, tls_max_version: c.tls_max_version, tls_min_version: c.tls_min_version,
      upndomain: c.upndomain, url: c.url, userdn: c.userdn, request_timeout: c.request_timeout,
      last_rotation_tolerance: c.last_rotation_tolerance,
    });
  }

  private writeConfig(r: EngineRequest): EmuResponse {
    const b = objectBody(r.body);
    const old = this.state.config;
    const policy = str(b, 'password_policy');
    const length = str(b, 'length');
    const formatter = str(b, 'formatter');
    if (policy && (length !== undefined || formatter !== undefined)) {
      throw new RequestError(400, 'cannot set password_policy and either length or formatter');
    }
    const lengthNum = length === undefined || length === '' ? undefined : Number(length);
    if (lengthNum !== undefined && !Number.isInteger(lengthNum)) throw new RequestError(400, `length: "${length}" is not an integer`);
    const legacy = lengthNum !== undefined || formatter !== undefined;
    const c: DirConfig = {
      binddn: str(b, 'binddn') ?? old?.binddn ?? '',
      bindpass: str(b, 'bindpass') ?? old?.bindpass ?? '',
      url: str(b, 'url') ?? old?.url ?? 'ldap://127.0.0.1',
      userdn: str(b, 'userdn') ?? old?.userdn ?? '',
      upndomain: str(b, 'upndomain') ?? old?.upndomain ?? '',
      certificate: str(b, 'certificate') ?? old?.certificate ?? '',
      insecure_tls: bool(b, 'insecure_tls') ?? old?.insecure_tls ?? false,
      starttls: bool(b, 'starttls') ?? old?.starttls ?? false,
      tls_min_version: str(b, 'tls_min_version') ?? old?.tls_min_version ?? 'tls12',
      tls_max_version: str(b, 'tls_max_version') ?? old?.tls_max_version ?? 'tls12',
      request_timeout: duration(b, 'request_timeout') ?? old?.request_timeout ?? 90,
      ttl: duration(b, 'ttl') ?? old?.ttl ?? SYSTEM_MAX_TTL,
      max_ttl: duration(b, 'max_ttl') ?? old?.max_ttl ?? SYSTEM_MAX_TTL,
      password_policy: policy ?? (legacy ? '' : old?.password_policy ?? ''),
      length: lengthNum ?? (policy ? 0 : old?.length ?? 0),
      formatter: formatter ?? (policy ? '' : old?.formatter ?? ''),
      last_rotation_tolerance: duration(b, 'last_rotation_tolerance') ?? old?.last_rotation_tolerance ?? 5,
    };
    if (!c.binddn) throw new RequestError(400, 'binddn is required');
    if (!c.bindpass) throw new RequestError(400, 'bindpass is required');
    if (!c.password_policy) checkPasswordSettings(c.length, c.formatter);
    if (c.max_ttl > 0 && c.ttl > c.max_ttl) throw new RequestError(400, 'ttl cannot be greater than max_ttl');
    if (c.request_timeout <= 0) throw new RequestError(400, 'request_timeout must be positive');
    this.state.config = c;
    return noContent();
  }

  private deleteConfig(): EmuResponse {
    delete this.state.config;
    return noContent();
  }

  // ---- roles and creds

  private readRole(name: string): EmuResponse {
    const role = this.state.roles[name];
    if (!role) return notFound();
    const a = this.state.accounts[role.service_account_name];
    const data: Record<string, unknown> = { service_account_name: role.service_account_name, ttl: role.ttl };
    if (a) data.password_last_set = new Date(a.password_last_set_ms).toISOString();
    if (role.last_rotation_ms) data.last_service_rotation = new Date(role.last_rotation_ms).toISOString();
    return envelope(data);
  }

  private writeRole(r: EngineRequest, name: string): EmuResponse {
    const b = objectBody(r.body);
    const old = this.state.roles[name];
    const c = this.config();
    const account = str(b, 'service_account_name') ?? old?.service_account_name ?? '';
    if (!account) throw new RequestError(400, '"service_account_name" is required');
    this.account(account);
    const ttl = duration(b, 'ttl') ?? old?.ttl ?? c.ttl;
    if (c.max_ttl > 0 && ttl > c.max_ttl) {
      throw new RequestError(400, `requested ttl of ${ttl} seconds is over the max ttl of ${c.max_ttl} seconds`);
    }
    const keep = old && old.service_account_name === account;
    this.state.roles[name] = {
      service_account_name: account, ttl,
      last_rotation_ms: keep ? old.last_rotation_ms : 0, current_password: keep ? old.current_password : '',
      last_password: keep ? old.last_password : '',
    };
    return noContent();
  }

  private deleteRole(name: string): EmuResponse {
    delete this.state.roles[name];
    return noContent();
  }

  private role(name: string): DirRole {
    const role = this.state.roles[name];
    if (!role) throw new RequestError(400, `role "${name}" not found`);
    return role;
  }

  private rotateRoleNow(role: DirRole): void {
    const password = generatePassword(this.config());
    this.setPassword(role.service_account_name, password);
    role.last_password = role.current_password;
    role.current_password = password;
    role.last_rotation_ms = this.state.accounts[role.service_account_name].password_last_set_ms;
  }

  /**
   * Current credentials, rotated first when the engine never rotated them, when `ttl` has passed,
   * or when the directory's last-set time is off the engine's own rotation by more than
   * `last_rotation_tolerance` (someone else changed the password).
   */
  private async creds(name: string): Promise<EmuResponse> {
    const role = this.role(name);
    const c = this.config();
    const a = this.account(role.service_account_name);
    const now = this.clock.now();
    const due = !role.last_rotation_ms || (role.ttl > 0 && now >= role.last_rotation_ms + role.ttl * 1000)
      || Math.abs(a.password_last_set_ms - role.last_rotation_ms) > c.last_rotation_tolerance * 1000;
    if (due) await this.rotation(`role:${name}`, `role "${name}"`, () => this.rotateRoleNow(role));
    const data: Record<string, unknown> = { current_password: role.current_password, username: role.service_account_name };
    if (role.last_password) data.last_password = role.last_password;
    return envelope(data);
  }

  private rotateRole(name: string): Promise<EmuResponse> {
    const role = this.role(name);
    this.account(role.service_account_name);
    return this.rotation(`role:${name}`, `role "${name}"`, () => this.rotateRoleNow(role));
  }

  private rotateRoot(): Promise<EmuResponse> {
    const c = this.bind();
    return this.rotation('root', 'the root credential', () => {
      const password = generatePassword(c);
      this.setPassword(c.binddn, password);
      c.bindpass = password;
    });
  }

  // ---- library

  private libraryGet(rest: string): EmuResponse {
    const status = /^([^/]+)\/status$/.exec(rest);
    if (status) return this.status(status[1]);
    if (rest.includes('/')) return errors(404, 'unsupported path');
    const s = this.state.sets[rest];
    if (!s) return notFound();
    return envelope({
      service_account_names: s.service_account_names, ttl: s.ttl, max_ttl: s.max_ttl,
      disable_check_in_enforcement: s.disable_check_in_enforcement,
    });
  }

  private libraryPost(r: EngineRequest, rest: string): EmuResponse | Promise<EmuResponse> {
    const manage = /^manage\/([^/]+)\/check-in$/.exec(rest);
    if (manage) return this.checkIn(r, manage[1], true);
    const action = /^([^/]+)\/(check-out|check-in)$/.exec(rest);
    if (action) return action[2] === 'check-out' ? this.checkOut(r, action[1]) : this.checkIn(r, action[1], false);
    if (rest.includes('/')) return errors(404, 'unsupported path');
    return this.writeSet(r, rest);
  }

  private writeSet(r: EngineRequest, name: string): EmuResponse {
    const b = objectBody(r.body);
    const old = this.state.sets[name];
    const s: DirSet = {
      service_account_names: list(b, 'service_account_names') ?? old?.service_account_names ?? [],
      ttl: duration(b, 'ttl') ?? old?.ttl ?? DAY,
      max_ttl: duration(b, 'max_ttl') ?? old?.max_ttl ?? DAY,
      disable_check_in_enforcement: bool(b, 'disable_check_in_enforcement') ?? old?.disable_check_in_enforcement ?? false,
    };
    if (!s.service_account_names.length) throw new RequestError(400, '"service_account_names" must be provided');
    if (s.max_ttl > 0 && s.ttl > s.max_ttl) throw new RequestError(400, 'ttl cannot be greater than max_ttl');
    this.config();
    for (const account of s.service_account_names) {
      this.account(account);
      for (const [other, o] of Object.entries(this.state.sets)) {
        if (other !== name && o.service_account_names.includes(account)) {
          throw new RequestError(400, `"${account}" is already managed by set "${other}"`);
        }
      }
    }
    for (const removed of old?.service_account_names.filter((a) => !s.service_account_names.includes(a)) ?? []) {
      if (this.state.checkouts[removed]) throw new RequestError(400, `"${removed}" can't be removed from the set because it is currently checked out`);
    }
    this.state.sets[name] = s;
    return noContent();
  }

  private deleteSet(name: string): EmuResponse {
    if (name.includes('/')) return errors(404, 'unsupported path');
    const s = this.state.sets[name];
    const out = s?.service_account_names.find((a) => this.state.checkouts[a]);
    if (out) throw new RequestError(400, `set "${name}" can't be deleted because "${out}" is currently checked out`);
    delete this.state.sets[name];
    return noContent();
  }

  private set(name: string): DirSet {
    const s = this.state.sets[name];
    if (!s) throw new RequestError(400, `set "${name}" doesn't exist`);
    return s;
  }

  private status(name: string): EmuResponse {
    const s = this.set(name);
    const out: Record<string, unknown> = {};
    for (const a of s.service_account_names) {
      const c = this.state.checkouts[a];
      out[a] = c ? { available: false, borrower_client_token: c.borrower_client_token, borrower_entity_id: c.borrower_entity_id } : { available: true };
    }
    return envelope(out);
  }

  private checkOut(r: EngineRequest, name: string): EmuResponse {
    const s = this.set(name);
    const b = objectBody(r.body);
    let ttl = duration(b, 'ttl') ?? s.ttl;
    if (s.ttl > 0 && (ttl > s.ttl || ttl === 0)) ttl = s.ttl;
    const account = s.service_account_names.find((a) => !this.state.checkouts[a]);
    if (!account) throw new RequestError(400, NO_ACCOUNT);
    if (!this.state.library_passwords[account]) this.rotateLibraryAccount(account);
    const leaseTtl = ttl || SYSTEM_MAX_TTL;
    const c: DirCheckOut = {
      set: name, lease_id: `${r.mount}/library/${name}/check-out/${randomBytes(12).toString('base64url')}`,
      borrower_client_token: borrower(r), borrower_entity_id: '', expires_ms: this.clock.now() + leaseTtl * 1000, issued_ms: this.clock.now(),
    };
    this.state.checkouts[account] = c;
    this.scheduleCheckIn(account, c);
    const res = envelope({ password: this.state.library_passwords[account], service_account_name: account });
    return { ...res, body: { ...(res.body as object), lease_id: c.lease_id, lease_duration: leaseTtl, renewable: true } };
  }

  private checkIn(r: EngineRequest, name: string, manage: boolean): EmuResponse {
    const s = this.set(name);
    const caller = borrower(r);
    const enforce = !manage && !s.disable_check_in_enforcement;
    let names = list(objectBody(r.body), 'service_account_names');
    if (!names || names.length === 0) {
      const mine = s.service_account_names.filter((a) => this.state.checkouts[a] && (!enforce || this.state.checkouts[a].borrower_client_token === caller));
      if (mine.length > 1) throw new RequestError(400, 'when multiple service accounts are checked out, the "service_account_names" to check in must be provided');
      names = mine;
    }
    for (const a of names) {
      if (!s.service_account_names.includes(a)) throw new RequestError(400, `"${a}" is not a member of set "${name}"`);
      const c = this.state.checkouts[a];
      if (c && enforce && c.borrower_client_token !== caller) {
        throw new RequestError(400, `"${a}" can't be checked in because it wasn't checked out by the caller`);
      }
    }
    const checkIns: string[] = [];
    for (const a of names) {
      if (!this.state.checkouts[a]) continue; // already in: success, not listed
      this.release(a);
      checkIns.push(a);
    }
    return envelope({ check_ins: checkIns });
  }

  /** The account a check-out lease holds, while it lasts. */
  private checkedOutBy(leaseId: string): string | undefined {
    return Object.keys(this.state.checkouts).find((a) => this.state.checkouts[a].lease_id === leaseId && this.state.checkouts[a].expires_ms > this.clock.now());
  }

  /** `sys/leases/*` on check-outs: revoking one checks its account in (and rotates its password). */
  public readonly leases: EngineLeases = {
    lookup: (id) => {
      const a = this.checkedOutBy(id);
      if (!a) return undefined;
      const c = this.state.checkouts[a];
      return { issuedMs: c.issued_ms ?? c.expires_ms, expiresMs: c.expires_ms, lastRenewalMs: c.renewed_ms };
    },
    renew: (id, increment) => {
      const a = this.checkedOutBy(id);
      if (!a) return undefined;
      const c = this.state.checkouts[a];
      const setTtl = this.state.sets[c.set]?.ttl || SYSTEM_MAX_TTL;
      const now = this.clock.now();
      c.expires_ms = now + Math.min(increment > 0 ? increment : setTtl, setTtl) * 1000;
      c.renewed_ms = now;
      this.scheduleCheckIn(a, c);
      return this.leases.lookup(id);
    },
    revoke: async (id) => {
      const a = this.checkedOutBy(id);
      if (a) this.release(a);
    },
  };

  /** Frees an account and rotates its password so that the borrower's copy stops working. */
  private release(account: string): void {
    delete this.state.checkouts[account];
    this.timers.clear(account);
    try {
      this.rotateLibraryAccount(account);
    } catch {
      delete this.state.library_passwords[account]; // rotated at the next check-out instead
    }
  }

  private rotateLibraryAccount(account: string): void {
    const password = generatePassword(this.config());
    this.setPassword(account, password);
    this.state.library_passwords[account] = password;
  }

  private scheduleCheckIn(account: string, c: DirCheckOut): void {
    this.timers.set(account, c.expires_ms - this.clock.now(), () => {
      if (this.state.checkouts[account]?.lease_id === c.lease_id) this.release(account);
    });
  }
}
