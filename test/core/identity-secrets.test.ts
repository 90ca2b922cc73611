import { App, TerraformStack } from 'cdktf';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import { ServiceDefaults } from '../../lib/mesh/config-entry/service-defaults';
import { Organization } from '../../lib/platform/organization/organization';
import { DatabaseRole } from '../../lib/secrets/database/database-role';
import { DatabaseConnection } from '../../lib/secrets/database/database-connection';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { KvSecretData } from '../../lib/secrets/kv/kv-secret-data';

// A value of an object's identity is its id in state, in plans and in `state list`: a secret there would be
// kept and printed in clear. It is refused when the construct is made, naming the construct path and field.
describe('a secret in an identity field', () => {
  const stack = () => new TerraformStack(new App(), 'ids');

  test('a KvSecretData field as a KV path is refused, naming the field and the secret it refers to', () => {
    const s = stack();
    const db = new KvSecretData(s, 'settings', { path: 'acme/db' });
    expect(() => new KvSecret(s, 'copy', { path: db.field('password'), data: { a: 'b' } }))
      .toThrow('ids/copy: path is part of the object\'s identity (kept in clear in state and printed in plans), '
        + 'so it cannot be a secret (got a reference to settings.data.password, a sensitive value)');
  });

  test('a SecretValue reference as a mesh entry name is refused', () => {
    const s = stack();
    const db = new KvSecretData(s, 'settings', { path: 'acme/db' });
    expect(() => new ServiceDefaults(s, 'web', { name: SecretValue.resourceAttribute(db.field('svc')) as unknown as string }))
      .toThrow(/^ids\/web: name .*cannot be a secret/);
    expect(() => new ServiceDefaults(s, 'web2', { name: db.field('svc') }))
      .toThrow('ids/web2: name is part of the object\'s identity');
  });

  test('a role name, a mount and an organization name take no secret either', () => {
    const s = stack();
    const db = new KvSecretData(s, 'settings', { path: 'acme/db' });
    const conn = new DatabaseConnection(s, 'pg', { name: 'app-db', connectionUrl: 'postgresql://x@127.0.0.1:1/app', verifyConnection: false });
    expect(() => new DatabaseRole(s, 'role', { name: db.field('role'), connection: conn, creationStatements: ['CREATE ROLE "{{name}}"'] }))
      .toThrow('ids/role: name is part of the object\'s identity');
    expect(() => new KvSecret(s, 'm', { mount: db.field('mount'), path: 'a/b', data: { a: 'b' } }))
      .toThrow('ids/m: mount is part of the object\'s identity');
    expect(() => new Organization(s, 'org', { name: db.field('org'), email: 'ops@acme.io' }))
      .toThrow('ids/org: name is part of the object\'s identity');
  });

  test('a plain reference (not a secret) is still accepted, and a secret stays fine in a field that is no identity', () => {
    const s = stack();
    const db = new KvSecretData(s, 'settings', { path: 'acme/db' });
    expect(() => new KvSecret(s, 'by-version', { path: 'x/y', data: { v: db.field('password') } })).not.toThrow();
    const src = new KvSecret(s, 'src', { path: 'x/src', data: { a: 'b' } });
    expect(() => new KvSecretData(s, 'read', { path: 'x/src', version: src.version })).not.toThrow();
  });
});

describe('a number that is not finite', () => {
  test('names the value it got', () => {
    const s = new TerraformStack(new App(), 'nums');
    expect(() => new Organization(s, 'org', { name: 'acme', email: 'ops@acme.io', sessionTimeout: NaN }))
      .toThrow('nums/org: sessionTimeout must be a finite number (got NaN)');
    expect(() => new Organization(s, 'org2', { name: 'acme', email: 'ops@acme.io', sessionTimeout: Infinity }))
      .toThrow('nums/org2: sessionTimeout must be a finite number (got Infinity)');
  });
});
