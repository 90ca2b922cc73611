import { App, TerraformStack } from 'cdktf';
import { ConvergeTesting } from '../../lib/core/constructs/testing';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import {
  DatabaseConnection, DatabaseCredentialType, DatabaseRole, DatabaseStaticRole, DirectoryConfig, DirectoryLibrarySet, DirectoryRole,
} from '../../lib/secrets';

function stack(): TerraformStack {
  return new TerraformStack(new App(), 'test');
}
const URL = 'postgresql://{{username}}:{{password}}@db:5432/app';

describe('database constructs', () => {
  test('every default in the spec; the password as where to find it; roles depend on their connection', () => {
    process.env.DB_ROOT_TEST = 'planted-root-secret';
    const s = stack();
    const conn = new DatabaseConnection(s, 'pg', { name: 'app-db', connectionUrl: URL, username: 'root', password: SecretValue.fromEnv('DB_ROOT_TEST') });
    new DatabaseRole(s, 'role', { name: 'app', connection: conn, creationStatements: ['CREATE ROLE "{{name}}"'] });
    new DatabaseStaticRole(s, 'static', { name: 'st', dbName: 'app-db', username: 'svc', rotationPeriod: '24h' });
    const d = ConvergeTesting.desiredState(s);
    expect(d.resources.pg.kind).toBe('secrets.DatabaseConnection');
    expect(d.resources.pg.spec).toEqual({
      mount: 'database', name: 'app-db', pluginName: 'postgresql-database-plugin', pluginVersion: '', verifyConnection: true,
      allowedRoles: [], rootRotationStatements: [], passwordPolicy: '', connectionUrl: URL, username: 'root',
      password: { $secret: { env: 'DB_ROOT_TEST' } }, disableEscaping: false, rotateRootOnCreate: false,
    });
    expect(d.resources.role.spec).toEqual({
      mount: 'database', name: 'app', dbName: 'app-db', defaultTtl: '0s', maxTtl: '0s', creationStatements: ['CREATE ROLE "{{name}}"'],
      revocationStatements: [], rollbackStatements: [], renewStatements: [], credentialType: 'password', credentialConfig: {},
    });
    expect(d.resources.role.dependsOn).toEqual(['pg']);
    expect(d.resources.static.spec).toEqual({
      mount: 'database', name: 'st', dbName: 'app-db', username: 'svc', rotationPeriod: '24h', rotationStatements: [],
      credentialType: DatabaseCredentialType.PASSWORD, credentialConfig: {},
    });
    expect(JSON.stringify(s.toTerraform())).not.toContain('planted-root-secret');
  });

  test('validation names the construct, the field and the rule', () => {
    const s = stack();
    expect(() => new DatabaseConnection(s, 'a', { name: 'a/b', connectionUrl: URL })).toThrow(/test\/a.*name.*must not contain "\/"/);
    expect(() => new DatabaseConnection(s, 'b', { name: 'b', connectionUrl: '' })).toThrow(/connectionUrl/);
    expect(() => new DatabaseConnection(s, 'c', { name: 'c', connectionUrl: URL, rotateRootOnCreate: true })).toThrow(/rotateRootOnCreate.*username/);
    expect(() => new DatabaseRole(s, 'd', { name: 'd', dbName: 'x', creationStatements: [] })).toThrow(/creationStatements.*at least one/);
    expect(() => new DatabaseRole(s, 'e', { name: 'e', creationStatements: ['x'] })).toThrow(/dbName.*required/);
    expect(() => new DatabaseRole(s, 'f', { name: 'f', dbName: 'x', creationStatements: ['x'], defaultTtl: '2h', maxTtl: '1h' }))
      .toThrow(/defaultTtl.*longer than maxTtl/);
    expect(() => new DatabaseRole(s, 'g', { name: 'g', dbName: 'x', creationStatements: ['x'], defaultTtl: 'soon' })).toThrow(/defaultTtl.*not a duration/);
    expect(() => new DatabaseStaticRole(s, 'h', { name: 'h', dbName: 'x', username: 'u', rotationPeriod: '4s' })).toThrow(/rotationPeriod.*at least 5 seconds/);
    expect(() => new DatabaseStaticRole(s, 'i', { name: 'i', dbName: 'x', username: '', rotationPeriod: '5s' })).toThrow(/username/);
    expect(() => new DatabaseRole(s, 'j', { name: 'j', dbName: 'x', creationStatements: ['x'], credentialType: 'nope' as any })).toThrow(/credentialType/);
  });
});

describe('directory constructs', () => {
  test('every default in the spec; bindpass as where to find it', () => {
    const s = stack();
    const config = new DirectoryConfig(s, 'cfg', { binddn: 'CN=vault', bindpass: SecretValue.fromEnv('BIND_PASS') });
    new DirectoryRole(s, 'role', { name: 'app', serviceAccountName: 'svc-a', config });
    new DirectoryLibrarySet(s, 'lib', { name: 'ops', serviceAccountNames: ['svc-b'], config });
    new DirectoryConfig(s, 'cfg2', { mount: 'ad2', binddn: 'CN=v', bindpass: SecretValue.fromEnv('B'), passwordPolicy: 'corp' });
    const d = ConvergeTesting.desiredState(s);
    expect(d.resources.cfg.spec).toEqual({
      mount: 'directory', binddn: 'CN=vault', bindpass: { $secret: { env: 'BIND_PASS' } }, url: 'ldap://127.0.0.1', userdn: '',
      upndomain: '', certificate: '', insecureTls: false, starttls: false, tlsMinVersion: 'tls12', tlsMaxVersion: 'tls12',
      requestTimeout: '1m30s', ttl: '768h', maxTtl: '768h', passwordPolicy: '', length: 64, formatter: '', lastRotationTolerance: '5s',
    });
    expect(d.resources.cfg2.spec).toMatchObject({ passwordPolicy: 'corp', length: 0, formatter: '' });
    expect(d.resources.role.spec).toEqual({ mount: 'directory', name: 'app', serviceAccountName: 'svc-a' });
    expect(d.resources.role.dependsOn).toEqual(['cfg']);
    // The accounts are a set: order and repeats do not count.
    new DirectoryLibrarySet(s, 'lib2', { mount: 'ad2', name: 'ops', serviceAccountNames: ['svc-c', 'svc-b', 'svc-c'] });
    expect(ConvergeTesting.desiredState(s).resources.lib2.spec.serviceAccountNames).toEqual(['svc-b', 'svc-c']);
    expect(d.resources.lib.spec).toEqual({
      mount: 'directory', name: 'ops', serviceAccountNames: ['svc-b'], ttl: '24h', maxTtl: '24h', disableCheckInEnforcement: false,
    });
  });

  test('validation: policy excludes length/formatter, length minimum, formatter once, ttls, names', () => {
    const s = stack();
    const bindpass = SecretValue.fromEnv('B');
    expect(() => new DirectoryConfig(s, 'a', { binddn: 'x', bindpass, passwordPolicy: 'p', length: 20 })).toThrow(/passwordPolicy.*excludes/);
    expect(() => new DirectoryConfig(s, 'b', { binddn: 'x', bindpass, length: 13 })).toThrow(/length.*14/);
    expect(() => new DirectoryConfig(s, 'c', { binddn: 'x', bindpass, formatter: 'abc' })).toThrow(/formatter.*exactly once/);
    expect(() => new DirectoryConfig(s, 'd', { binddn: 'x', bindpass, ttl: '2h', maxTtl: '1h' })).toThrow(/ttl.*maxTtl/);
    expect(() => new DirectoryConfig(s, 'e', { binddn: '', bindpass })).toThrow(/binddn/);
    expect(() => new DirectoryRole(s, 'f', { name: 'f', serviceAccountName: '' })).toThrow(/serviceAccountName/);
    expect(() => new DirectoryRole(s, 'g', { name: 'g', serviceAccountName: 'a', ttl: 'x' })).toThrow(/ttl/);
    expect(() => new DirectoryLibrarySet(s, 'h', { name: 'h', serviceAccountNames: [] })).toThrow(/at least one/);
    expect(() => new DirectoryLibrarySet(s, 'i', { name: 'i', serviceAccountNames: ['a', 'a,b'] })).toThrow(/serviceAccountNames\[1\] "a,b" must be a non-empty name without ","/);
    expect(() => new DirectoryLibrarySet(s, 'j', { name: 'j', serviceAccountNames: ['a'], ttl: '48h' })).toThrow(/ttl.*maxTtl/);
  });
});
