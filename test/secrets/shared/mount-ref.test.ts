import { App, TerraformStack } from 'cdktf';
import { ConvergeTesting } from '../../../lib/core/constructs/testing';
import { SecretValue } from '../../../lib/core/constructs/secret-value';
import * as secrets from '../../../lib/secrets';

// Every engine construct and data source that takes a mount path takes a `SecretsMount` reference
// (`secretsMount`) as well: same semantics as KvSecret's. The spec's mount is then a reference to
// the mount's path, the construct depends on the mount, both forms at once are refused, and a
// mount of another engine type is refused at synth, naming the construct path and the field.

function stack(): TerraformStack {
  return new TerraformStack(new App(), 'test');
}
const URL = 'postgresql://{{username}}:{{password}}@db:5432/app';
const mountRef = { $ref: 'mnt', attr: 'mountedPath' };

/** One construct of each engine, placed in `m` (a mount of `type`), and its props without the mount. */
const PLACED: { type: string; make: (s: TerraformStack, id: string, m: Record<string, unknown>) => unknown }[] = [
  { type: 'database', make: (s, id, m) => new secrets.DatabaseConnection(s, id, { ...m, name: 'app-db', connectionUrl: URL }) },
  { type: 'database', make: (s, id, m) => new secrets.DatabaseRole(s, id, { ...m, name: 'app', dbName: 'app-db', creationStatements: ['SELECT 1'] }) },
  { type: 'database', make: (s, id, m) => new secrets.DatabaseStaticRole(s, id, { ...m, name: 'st', dbName: 'app-db', username: 'u', rotationPeriod: '24h' }) },
  { type: 'directory', make: (s, id, m) => new secrets.DirectoryConfig(s, id, { ...m, binddn: 'cn=admin', bindpass: SecretValue.fromEnv('BINDPASS') }) },
  { type: 'directory', make: (s, id, m) => new secrets.DirectoryRole(s, id, { ...m, name: 'svc', serviceAccountName: 'svc-a' }) },
  { type: 'directory', make: (s, id, m) => new secrets.DirectoryLibrarySet(s, id, { ...m, name: 'ops', serviceAccountNames: ['svc-b'] }) },
  { type: 'platform', make: (s, id, m) => new secrets.PlatformTokenConfig(s, id, { ...m, token: SecretValue.fromEnv('PLATFORM_TOKEN') }) },
  { type: 'platform', make: (s, id, m) => new secrets.PlatformTokenRole(s, id, { ...m, name: 'ci', organization: 'acme' }) },
  { type: 'mesh', make: (s, id, m) => new secrets.MeshTokenConfig(s, id, { ...m, address: '127.0.0.1:8500', token: SecretValue.fromEnv('MESH_TOKEN') }) },
  { type: 'mesh', make: (s, id, m) => new secrets.MeshTokenRole(s, id, { ...m, name: 'web', serviceIdentities: ['web:dc1'] }) },
  { type: 'kv', make: (s, id, m) => new secrets.KvSecretData(s, id, { ...m, path: 'app/db' }) },
  { type: 'kv', make: (s, id, m) => new secrets.KvSecretSubkeys(s, id, { ...m, path: 'app/db' }) },
  { type: 'totp', make: (s, id, m) => new secrets.TotpKeyInfo(s, id, { ...m, name: 'ann' }) },
];

describe('secretsMount on every engine construct', () => {
  test.each(PLACED.map((p, i) => [p.type, i] as const))('a %s construct (#%i) placed by reference: the spec mount is the reference, it depends on the mount', (type, i) => {
    const s = stack();
    const mnt = new secrets.SecretsMount(s, 'mnt', { path: `team-${type}`, type });
    const made = PLACED[i].make(s, 'placed', { secretsMount: mnt }) as { mount?: string };
    const d = ConvergeTesting.desiredState(s);
    const r = d.resources.placed ?? d.dataSources?.placed;
    expect(r).toBeDefined();
    expect(r.spec.mount).toEqual(mountRef);
    expect(r.dependsOn).toContain('mnt');
    expect(r.spec).not.toHaveProperty('secretsMount');
    if ('mount' in (made as object)) expect(typeof made.mount).toBe('string');
  });

  test.each(PLACED.map((p, i) => [p.type, i] as const))('a %s construct (#%i) refuses mount and secretsMount together, naming its path and the field', (type, i) => {
    const s = stack();
    const mnt = new secrets.SecretsMount(s, 'mnt', { path: `team-${type}`, type });
    expect(() => PLACED[i].make(s, 'placed', { secretsMount: mnt, mount: `team-${type}` }))
      .toThrow(/^test\/placed: secretsMount cannot be given with mount/);
  });

  test.each(PLACED.map((p, i) => [p.type, i] as const))('a %s construct (#%i) refuses a mount of another engine type', (type, i) => {
    const s = stack();
    const other = type === 'kv' ? 'database' : 'kv';
    const mnt = new secrets.SecretsMount(s, 'mnt', { path: 'wrong', type: other, options: other === 'kv' ? { version: '2' } : undefined });
    expect(() => PLACED[i].make(s, 'placed', { secretsMount: mnt }))
      .toThrow(new RegExp(`^test/placed: secretsMount is the ${other} mount test/mnt: .* needs a mount of type "${type}"`));
  });

  test('the existing kinds check the type too: a database mount given to a KvSecret, a kv mount to a TotpKey', () => {
    const s = stack();
    const db = new secrets.SecretsMount(s, 'db', { path: 'db', type: 'database' });
    const kv = new secrets.SecretsMount(s, 'kv', { path: 'kv', type: 'kv', options: { version: '2' } });
    expect(() => new secrets.KvSecret(s, 'k', { secretsMount: db, path: 'a', data: { a: '1' } })).toThrow(/test\/k: secretsMount is the database mount test\/db/);
    expect(() => new secrets.KvEngineConfig(s, 'c', { secretsMount: db })).toThrow(/test\/c: secretsMount is the database mount/);
    expect(() => new secrets.TotpKey(s, 't', { secretsMount: kv, name: 'ann', issuer: 'Acme', accountName: 'a@b' })).toThrow(/test\/t: secretsMount is the kv mount/);
    // kv-v2 is the real service's alias of a version 2 KV mount.
    const kv2 = new secrets.SecretsMount(s, 'kv2', { path: 'kv2', type: 'kv-v2' });
    expect(() => new secrets.KvSecret(s, 'ok', { secretsMount: kv2, path: 'a', data: { a: '1' } })).not.toThrow();
  });

  test('a value that is not a SecretsMount is refused with what it is', () => {
    const s = stack();
    expect(() => new secrets.DatabaseConnection(s, 'c', { secretsMount: 'database' as any, name: 'x', connectionUrl: URL }))
      .toThrow(/test\/c: secretsMount must be a SecretsMount of this app, not "database"/);
  });

  test('a role with a connection takes the connection\'s mount: the same SecretsMount is accepted, another one refused', () => {
    const s = stack();
    const db = new secrets.SecretsMount(s, 'db', { path: 'db', type: 'database' });
    const other = new secrets.SecretsMount(s, 'other', { path: 'other', type: 'database' });
    const conn = new secrets.DatabaseConnection(s, 'conn', { secretsMount: db, name: 'app-db', connectionUrl: URL });
    new secrets.DatabaseRole(s, 'role', { secretsMount: db, connection: conn, name: 'app', creationStatements: ['SELECT 1'] });
    new secrets.DatabaseRole(s, 'role2', { connection: conn, name: 'app2', creationStatements: ['SELECT 1'] });
    const d = ConvergeTesting.desiredState(s);
    expect(d.resources.role.spec.mount).toEqual({ $ref: 'db', attr: 'mountedPath' });
    expect(d.resources.role.dependsOn.sort()).toEqual(['conn', 'db']);
    expect(d.resources.role2.spec.mount).toEqual({ $ref: 'db', attr: 'mountedPath' });
    expect(() => new secrets.DatabaseStaticRole(s, 'bad', { secretsMount: other, connection: conn, name: 'st', username: 'u', rotationPeriod: '24h' }))
      .toThrow(/test\/bad: secretsMount is test\/other, not the mount of `connection` \(test\/db\)/);
    const byName = new secrets.DatabaseConnection(s, 'byname', { name: 'n', connectionUrl: URL });
    expect(() => new secrets.DatabaseRole(s, 'bad2', { secretsMount: db, connection: byName, name: 'x', creationStatements: ['SELECT 1'] }))
      .toThrow(/test\/bad2: secretsMount is test\/db, not the mount of `connection` \(the path "database"\)/);
    expect(() => new secrets.DatabaseRole(s, 'bad3', { mount: 'database', connection: conn, name: 'y', creationStatements: ['SELECT 1'] }))
      .toThrow(/test\/bad3: mount "database" differs from the mount of `connection` \(test\/db\)/);
    expect(() => new secrets.DatabaseRole(s, 'bad4', { mount: 'other', connection: byName, name: 'z', creationStatements: ['SELECT 1'] }))
      .toThrow(/test\/bad4: mount "other" differs from the mount of `connection` \(the path "database"\)/);
    const dir = new secrets.SecretsMount(s, 'dir', { path: 'dir', type: 'directory' });
    const config = new secrets.DirectoryConfig(s, 'dircfg', { secretsMount: dir, binddn: 'cn=admin', bindpass: SecretValue.fromEnv('BINDPASS') });
    new secrets.DirectoryRole(s, 'dirrole', { config, name: 'svc', serviceAccountName: 'svc-a' });
    expect(ConvergeTesting.desiredState(s).resources.dirrole.spec.mount).toEqual({ $ref: 'dir', attr: 'mountedPath' });
    expect(() => new secrets.DirectoryRole(s, 'bad5', { mount: 'directory', config, name: 'svc2', serviceAccountName: 'svc-b' }))
      .toThrow(/test\/bad5: mount "directory" differs from the mount of `config` \(test\/dir\)/);
    expect(() => new secrets.DirectoryLibrarySet(s, 'bad6', { secretsMount: new secrets.SecretsMount(s, 'dir2', { path: 'dir2', type: 'directory' }), config, name: 'x', serviceAccountNames: ['a'] }))
      .toThrow(/test\/bad6: secretsMount is test\/dir2, not the mount of `config` \(test\/dir\)/);
  });

  test('the credential data sources of a role placed by reference read below the referenced mount, after the role', () => {
    const s = stack();
    const db = new secrets.SecretsMount(s, 'db', { path: 'db', type: 'database' });
    const dir = new secrets.SecretsMount(s, 'dir', { path: 'dir', type: 'directory' });
    const role = new secrets.DatabaseRole(s, 'role', { secretsMount: db, name: 'app', dbName: 'app-db', creationStatements: ['SELECT 1'] });
    const set = new secrets.DirectoryLibrarySet(s, 'set', { secretsMount: dir, name: 'ops', serviceAccountNames: ['svc-b'] });
    new secrets.DatabaseCredentials(s, 'creds', { role });
    new secrets.DirectoryLibraryCheckOut(s, 'lent', { librarySet: set });
    const d = ConvergeTesting.desiredState(s);
    const creds = d.resources.creds ?? d.dataSources?.creds;
    const lent = d.resources.lent ?? d.dataSources?.lent;
    expect(creds.spec).toEqual({ mount: { $ref: 'db', attr: 'mountedPath' }, role: 'app' });
    expect(creds.dependsOn).toContain('role');
    expect(lent.spec.mount).toEqual({ $ref: 'dir', attr: 'mountedPath' });
    expect(lent.dependsOn).toContain('set');
  });

  test('AppRoleRole: authBackend and mount together are refused; a method of another type too', () => {
    const s = stack();
    const approle = new secrets.AuthBackend(s, 'approle', { path: 'ci', type: 'approle' });
    const userpass = new secrets.AuthBackend(s, 'userpass', { path: 'up', type: 'userpass' });
    expect(() => new secrets.AppRoleRole(s, 'both', { authBackend: approle, mount: 'ci', name: 'x' })).toThrow(/^test\/both: authBackend cannot be given with mount/);
    expect(() => new secrets.AppRoleRole(s, 'other', { authBackend: userpass, name: 'x' }))
      .toThrow(/^test\/other: authBackend is the userpass method test\/userpass: .* needs a method of type "approle"/);
  });
});
