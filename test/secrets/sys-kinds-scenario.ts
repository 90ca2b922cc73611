import { TerraformStack } from 'cdktf';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import * as secrets from '../../lib/secrets';
import { cliAsync, CliResult, synthApp } from '../support/harness';

/** A secrets service to run the scenario against: the emulator or a real OpenBao. */
export interface SysTarget {
  /** The environment of a CLI run (address, token, token header, its own CONVERGE_DIR). */
  env: NodeJS.ProcessEnv;
  /** A request below `/v1` with the root token, or `token`. */
  api(method: string, p: string, body?: unknown, token?: string): Promise<{ status: number; body: any }>;
}

export interface SysVersion {
  readonly description: string;
  readonly ttl: string;
  readonly type: string;
  readonly options: Record<string, string>;
  readonly policy: string;
  /** A KV secret in the first mount (planned once the mount exists: its read needs the engine). */
  readonly key?: boolean;
}

export const V1: SysVersion = { key: true, description: 'team secrets', ttl: '1h', type: 'kv', options: { version: '2' }, policy: 'path "team-kv/data/*" { capabilities = ["read"] }' };

/** Two mounts (one holding a KV secret), a policy and the stack's own least-privilege policy. */
export function sysApp(prefix: string, v: SysVersion): string {
  return synthApp((st: TerraformStack) => {
    const kv = new secrets.SecretsMount(st, 'team-kv', {
      path: `${prefix}-kv`, type: 'kv', description: v.description, defaultLeaseTtl: v.ttl, maxLeaseTtl: '2h', options: v.options,
    });
    new secrets.SecretsMount(st, 'other', { path: `${prefix}/other`, type: v.type, ...(v.type === 'kv' ? { options: { version: '2' } } : {}) });
    if (v.key) new secrets.KvSecret(st, 'key', { mount: `${prefix}-kv`, path: 'app/db', data: { user: 'app' } }).node.addDependency(kv);
    new secrets.SecretsPolicy(st, 'readers', { name: `${prefix}-readers`, policy: v.policy });
    new secrets.LeastPrivilegePolicy(st, 'ci', { name: `${prefix}-ci` });
  });
}

export async function run(t: SysTarget, ...args: string[]): Promise<CliResult> {
  return cliAsync(args, t.env);
}

/**
 * Plan, apply, no-op plan, tune in place (the data in the mount kept), drift made outside converge,
 * a type change (replacement), the least-privilege policy equal to `converge policy` and enough for
 * a token holding only it, import, destroy.
 */
export async function sysScenario(t: SysTarget, prefix: string): Promise<void> {
  const v0 = sysApp(prefix, { ...V1, key: false });
  let r = await run(t, 'plan', '--synth-dir', v0, '--detailed-exitcode');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(2);
  expect(r.stdout).toMatch(/team-kv \(secrets\.SecretsMount\)[^\n]*created/);
  r = await run(t, 'apply', '--synth-dir', v0, '--auto-approve');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const v1 = sysApp(prefix, V1);
  r = await run(t, 'apply', '--synth-dir', v1, '--auto-approve');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const mount = (await t.api('GET', `sys/mounts/${prefix}-kv`)).body.data;
  expect(mount).toMatchObject({ type: 'kv', description: 'team secrets', options: { version: '2' }, config: { default_lease_ttl: 3600, max_lease_ttl: 7200 } });
  expect((await t.api('GET', `sys/mounts/${prefix}/other`)).body.data.type).toBe('kv');
  expect((await t.api('GET', `sys/policies/acl/${prefix}-readers`)).body.data.policy).toBe(V1.policy);
  expect((await t.api('GET', `${prefix}-kv/data/app/db`)).body.data.data).toEqual({ user: 'app' });

  r = await run(t, 'plan', '--synth-dir', v1, '--detailed-exitcode');
  expect(r.stdout).toMatch(/No changes/);
  expect(r.status).toBe(0);

  // The least-privilege policy is what `converge policy` prints, and a token holding only it plans the stack.
  r = await run(t, 'policy', '--synth-dir', v1, '--json');
  expect(r.status).toBe(0);
  const printed = JSON.parse(r.stdout).secretsPolicy as string;
  expect(printed).toContain(`path "sys/mounts/${prefix}-kv" { capabilities = ["read", "update", "delete"] }`);
  expect(printed).toContain(`path "sys/policies/acl/${prefix}-ci" { capabilities = ["read", "update", "delete"] }`);
  expect((await t.api('GET', `sys/policies/acl/${prefix}-ci`)).body.data.policy).toBe(printed);
  const token = (await t.api('POST', 'auth/token/create', { policies: [`${prefix}-ci`] })).body.auth.client_token as string;
  const ci = { ...t, env: { ...t.env, SECRETS_TOKEN: token } };

  // Tuned in place, by the least-privilege token: the mount (and the secret in it) stays.
  const v2 = sysApp(prefix, { ...V1, description: 'team secrets, tuned', ttl: '30m', options: { version: '2', extra: 'x' } });
  r = await run(ci, 'plan', '--synth-dir', v2, '--detailed-exitcode');
  expect(r.status).toBe(2);
  expect(r.stdout).toMatch(/team-kv \(secrets\.SecretsMount\)[^\n]*updated/);
  expect(r.stdout).not.toMatch(/team-kv \(secrets\.SecretsMount\)[^\n]*replaced/);
  r = await run(ci, 'apply', '--synth-dir', v2, '--auto-approve');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const tuned = (await t.api('GET', `sys/mounts/${prefix}-kv`)).body.data;
  expect(tuned).toMatchObject({ description: 'team secrets, tuned', options: { version: '2', extra: 'x' }, config: { default_lease_ttl: 1800 } });
  expect(tuned.accessor).toBe(mount.accessor);
  expect((await t.api('GET', `${prefix}-kv/data/app/db`)).body.data.data).toEqual({ user: 'app' });
  r = await run(ci, 'plan', '--synth-dir', v2, '--detailed-exitcode');
  expect(r.status).toBe(0);

  // An option cannot be removed in place: refused with the reason, nothing changed.
  const noExtra = sysApp(prefix, { ...V1, description: 'team secrets, tuned', ttl: '30m' });
  r = await run(t, 'apply', '--synth-dir', noExtra, '--auto-approve');
  expect(r.status).not.toBe(0);
  expect(r.stdout + r.stderr).toMatch(/team-kv[^\n]*options[^\n]*"extra" cannot be removed in place/);

  // Drift outside converge: seen, converged back.
  expect((await t.api('POST', `sys/mounts/${prefix}-kv/tune`, { description: 'changed by hand' })).status).toBe(204);
  expect((await t.api('POST', `sys/policies/acl/${prefix}-readers`, { policy: 'path "x" { capabilities = ["read"] }' })).status).toBe(204);
  r = await run(t, 'plan', '--synth-dir', v2, '--detailed-exitcode');
  expect(r.status).toBe(2);
  expect(r.stdout).toMatch(/team-kv \(secrets\.SecretsMount\)[^\n]*updated/);
  expect(r.stdout).toMatch(/readers \(secrets\.SecretsPolicy\)[^\n]*updated/);
  r = await run(t, 'apply', '--synth-dir', v2, '--auto-approve');
  expect(r.status).toBe(0);
  expect((await t.api('GET', `sys/mounts/${prefix}-kv`)).body.data.description).toBe('team secrets, tuned');
  expect((await t.api('GET', `sys/policies/acl/${prefix}-readers`)).body.data.policy).toBe(V1.policy);

  // A type change replaces the mount.
  const v3 = sysApp(prefix, { ...V1, description: 'team secrets, tuned', ttl: '30m', options: { version: '2', extra: 'x' }, type: 'totp' });
  r = await run(t, 'plan', '--synth-dir', v3, '--detailed-exitcode');
  expect(r.status).toBe(2);
  expect(r.stdout).toMatch(/other \(secrets\.SecretsMount\)[^\n]*replaced/);
  r = await run(t, 'apply', '--synth-dir', v3, '--auto-approve');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect((await t.api('GET', `sys/mounts/${prefix}/other`)).body.data.type).toBe('totp');

  // Import into a fresh state: the plan after it is a no-op for the imported objects.
  const fresh = { ...t, env: { ...t.env, CONVERGE_DIR: `${t.env.CONVERGE_DIR}-import` } };
  const imported = synthApp((st: TerraformStack) => {
    new secrets.SecretsMount(st, 'team-kv', {
      path: `${prefix}-kv`, type: 'kv', description: 'team secrets, tuned', defaultLeaseTtl: '30m', maxLeaseTtl: '2h', options: { version: '2', extra: 'x' },
    });
    new secrets.SecretsPolicy(st, 'readers', { name: `${prefix}-readers`, policy: V1.policy });
  });
  r = await run(fresh, 'import', 'team-kv', `${prefix}-kv`, '--synth-dir', imported);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  r = await run(fresh, 'import', 'readers', `${prefix}-readers`, '--synth-dir', imported);
  expect(r.status).toBe(0);
  r = await run(fresh, 'plan', '--synth-dir', imported, '--detailed-exitcode');
  expect(r.stdout).toMatch(/No changes/);
  expect(r.status).toBe(0);

  r = await run(t, 'destroy', '--synth-dir', v3, '--auto-approve');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect((await t.api('GET', `sys/mounts/${prefix}-kv`)).status).toBe(400);
  expect((await t.api('GET', `sys/mounts/${prefix}/other`)).status).toBe(400);
  expect((await t.api('GET', `sys/policies/acl/${prefix}-readers`)).status).toBe(404);
  expect((await t.api('GET', `sys/policies/acl/${prefix}-ci`)).status).toBe(404);
}

/**
 * Constructs placed in mounts by reference (`secretsMount`), created by the same apply: planned as
 * new (nothing read under a mount that does not exist yet), created after the mount; `converge
 * policy` names the exact paths; both forms at once are refused at synth.
 */
export async function mountRefScenario(t: SysTarget, prefix: string): Promise<void> {
  const app = synthApp((st: TerraformStack) => {
    const kv = new secrets.SecretsMount(st, 'kv', { path: `${prefix}-refkv`, type: 'kv', options: { version: '2' } });
    const totp = new secrets.SecretsMount(st, 'totp', { path: `${prefix}-reftotp`, type: 'totp' });
    const key = new secrets.KvSecret(st, 'key', { secretsMount: kv, path: 'app/db', data: { user: 'app' } });
    new secrets.KvEngineConfig(st, 'config', { secretsMount: kv, maxVersions: 4 });
    // A data source placed in the mount by reference: read during the apply that creates the mount.
    const read = new secrets.KvSecretData(st, 'read', { secretsMount: kv, path: 'app/db' });
    read.node.addDependency(key);
    new secrets.KvSecret(st, 'copy', { secretsMount: kv, path: 'app/copy', data: { user: SecretValue.resourceAttribute(read.field('user')) } });
    new secrets.TotpKey(st, 'mfa', { secretsMount: totp, name: 'ann', issuer: 'Acme', accountName: 'ann@acme.test' });
  });
  let r = await run(t, 'policy', '--synth-dir', app, '--json');
  const printed = JSON.parse(r.stdout).secretsPolicy as string;
  expect(printed).toContain(`path "${prefix}-refkv/data/app/db"`);
  expect(printed).toContain(`path "${prefix}-reftotp/keys/ann"`);
  expect(printed).not.toContain('+');
  r = await run(t, 'plan', '--synth-dir', app, '--detailed-exitcode');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(2);
  r = await run(t, 'apply', '--synth-dir', app, '--auto-approve');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect((await t.api('GET', `${prefix}-refkv/data/app/db`)).body.data.data).toEqual({ user: 'app' });
  expect((await t.api('GET', `${prefix}-refkv/config`)).body.data.max_versions).toBe(4);
  expect((await t.api('GET', `${prefix}-refkv/data/app/copy`)).body.data.data).toEqual({ user: 'app' });
  expect((await t.api('GET', `${prefix}-reftotp/keys/ann`)).body.data.issuer).toBe('Acme');
  r = await run(t, 'plan', '--synth-dir', app, '--detailed-exitcode');
  expect(r.stdout).toMatch(/No changes/);
  expect(r.status).toBe(0);
  r = await run(t, 'destroy', '--synth-dir', app, '--auto-approve');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect((await t.api('GET', `sys/mounts/${prefix}-refkv`)).status).toBe(400);
  expect(() => synthApp((st: TerraformStack) => {
    const kv = new secrets.SecretsMount(st, 'kv', { path: 'x', type: 'kv', options: { version: '2' } });
    new secrets.KvSecret(st, 'key', { secretsMount: kv, mount: 'x', path: 'a', data: { a: '1' } });
  })).toThrow(/key: secretsMount cannot be given with mount/);
}

/**
 * A database engine mounted by the app, with a connection and a role placed in it by reference:
 * planned as new (nothing read below a mount that does not exist yet), created mount first, then the
 * connection, then the role; destroyed in the reverse order (the role before its connection, both
 * before the mount). A KV mount given to a database role is refused at synth, naming the role.
 */
export async function databaseMountRefScenario(t: SysTarget, prefix: string): Promise<void> {
  const mountPath = `${prefix}-refdb`;
  const app = synthApp((st: TerraformStack) => {
    const db = new secrets.SecretsMount(st, 'db-mount', { path: mountPath, type: 'database' });
    // Not verified: the scenario needs no database, only the engine's objects.
    const conn = new secrets.DatabaseConnection(st, 'conn', {
      secretsMount: db, name: 'app-db', connectionUrl: 'postgresql://{{username}}:{{password}}@127.0.0.1:1/app',
      verifyConnection: false, allowedRoles: ['app'],
    });
    new secrets.DatabaseRole(st, 'role', {
      secretsMount: db, connection: conn, name: 'app', defaultTtl: '1h',
      creationStatements: ['CREATE ROLE "{{name}}" WITH LOGIN PASSWORD \'{{password}}\''],
    });
  });
  let r = await run(t, 'policy', '--synth-dir', app, '--json');
  const printed = JSON.parse(r.stdout).secretsPolicy as string;
  expect(printed).toContain(`path "${mountPath}/config/app-db"`);
  expect(printed).toContain(`path "${mountPath}/roles/app"`);
  r = await run(t, 'plan', '--synth-dir', app, '--detailed-exitcode');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(2);
  for (const a of ['db-mount', 'conn', 'role']) expect(r.stdout).toMatch(new RegExp(`${a} \\(secrets\\.\\w+\\) will be created`));
  r = await run(t, 'apply', '--synth-dir', app, '--auto-approve');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect(order(r.stdout, ['db-mount', 'conn', 'role'])).toEqual(['db-mount', 'conn', 'role']);
  expect((await t.api('GET', `sys/mounts/${mountPath}`)).body.data.type).toBe('database');
  expect((await t.api('GET', `${mountPath}/config/app-db`)).body.data.allowed_roles).toEqual(['app']);
  expect((await t.api('GET', `${mountPath}/roles/app`)).body.data).toMatchObject({ db_name: 'app-db', default_ttl: 3600 });
  r = await run(t, 'plan', '--synth-dir', app, '--detailed-exitcode');
  expect(r.stdout).toMatch(/No changes/);
  expect(r.status).toBe(0);
  r = await run(t, 'destroy', '--synth-dir', app, '--auto-approve');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect(order(r.stdout, ['db-mount', 'conn', 'role'])).toEqual(['role', 'conn', 'db-mount']);
  expect((await t.api('GET', `sys/mounts/${mountPath}`)).status).toBe(400);
  expect(() => synthApp((st: TerraformStack) => {
    const kv = new secrets.SecretsMount(st, 'kv', { path: 'x', type: 'kv', options: { version: '2' } });
    new secrets.DatabaseRole(st, 'role', { secretsMount: kv, name: 'app', dbName: 'app-db', creationStatements: ['SELECT 1'] });
  })).toThrow(/role: secretsMount is the kv mount [\w/]*kv: DatabaseRole needs a mount of type "database"/);
}

/** The addresses in the order the CLI reported them done (its "✓ <n> <address>: created" lines). */
function order(stdout: string, addresses: string[]): string[] {
  const done = stdout.split('\n').filter((l) => l.includes('✓'));
  const at = (a: string) => done.findIndex((l) => l.includes(` ${a}: `));
  for (const a of addresses) expect(at(a)).toBeGreaterThanOrEqual(0);
  return [...addresses].sort((x, y) => at(x) - at(y));
}

/**
 * Two auth methods, so that each plan reads them from one `sys/auth` list: created, a no-op, tuned in place
 * (their accessors kept), drift made outside converge seen and converged back, destroyed.
 */
export async function authMethodsScenario(t: SysTarget, prefix: string): Promise<void> {
  const app = (description: string) => synthApp((st: TerraformStack) => {
    new secrets.AuthBackend(st, 'ci', { path: `${prefix}-ci`, type: 'approle', description: `ci ${description}`, defaultLeaseTtl: '1h' });
    new secrets.AuthBackend(st, 'ops', { path: `${prefix}-ops`, type: 'approle', description: `ops ${description}` });
  });
  const method = async (name: string) => (await t.api('GET', `sys/auth/${prefix}-${name}`)).body.data;
  const v1 = app('one');
  let r = await run(t, 'apply', '--synth-dir', v1, '--auto-approve');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const accessor = (await method('ci')).accessor;
  expect(await method('ci')).toMatchObject({ type: 'approle', description: 'ci one', config: { default_lease_ttl: 3600 } });
  r = await run(t, 'plan', '--synth-dir', v1, '--detailed-exitcode');
  expect(r.stdout).toMatch(/No changes/);
  expect(r.status).toBe(0);

  const v2 = app('two');
  r = await run(t, 'apply', '--synth-dir', v2, '--auto-approve');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect(await method('ci')).toMatchObject({ description: 'ci two', accessor });
  expect((await method('ops')).description).toBe('ops two');
  r = await run(t, 'plan', '--synth-dir', v2, '--detailed-exitcode');
  expect(r.status).toBe(0);

  expect((await t.api('POST', `sys/auth/${prefix}-ops/tune`, { description: 'changed by hand' })).status).toBe(204);
  r = await run(t, 'plan', '--synth-dir', v2, '--detailed-exitcode');
  expect(r.status).toBe(2);
  expect(r.stdout).toMatch(/ops \(secrets\.AuthBackend\)[^\n]*updated/);
  expect(r.stdout).not.toMatch(/ci \(secrets\.AuthBackend\)/);
  r = await run(t, 'apply', '--synth-dir', v2, '--auto-approve');
  expect(r.status).toBe(0);
  expect((await method('ops')).description).toBe('ops two');

  r = await run(t, 'destroy', '--synth-dir', v2, '--auto-approve');
  expect(r.status).toBe(0);
  const left = Object.keys((await t.api('GET', 'sys/auth')).body.data);
  expect(left.filter((p) => p.startsWith(`${prefix}-`))).toEqual([]);
}
