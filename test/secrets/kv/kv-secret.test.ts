import { App, TerraformStack } from 'cdktf';
import { ConvergeTesting } from '../../../lib/core/constructs/testing';
import { RemovalPolicy } from '../../../lib/core/constructs/removal-policy';
import { SecretValue } from '../../../lib/core/constructs/secret-value';
import { KvEngineConfig, KvSecret, SecretsProvider, TotpKey } from '../../../lib/secrets';

function stack(): TerraformStack {
  return new TerraformStack(new App(), 'test');
}

describe('KvSecret', () => {
  test('synthesizes every default into the spec', () => {
    const s = stack();
    new KvSecret(s, 'db', { path: 'app/db', data: { user: 'app', port: 5432, tls: true } });
    const r = ConvergeTesting.desiredState(s).resources.db;
    expect(r.kind).toBe('secrets.KvSecret');
    expect(r.provider).toMatchObject({ api: 'secrets', addressEnv: 'SECRETS_ADDR', tokenEnv: 'SECRETS_TOKEN' });
    expect(r.removalPolicy).toBe('destroy');
    expect(r.spec).toEqual({
      mount: 'secret', path: 'app/db', data: { user: 'app', port: 5432, tls: true },
      customMetadata: {}, maxVersions: 0, casRequired: false, deleteVersionAfter: '0s',
    });
  });

  test('renders a SecretValue as where to find it, never its value', () => {
    process.env.KV_TEST_PASSWORD = 'hunter2-planted';
    const s = stack();
    new KvSecret(s, 'db', {
      mount: 'kv', path: 'a/b', data: { password: SecretValue.fromEnv('KV_TEST_PASSWORD') },
      customMetadata: { owner: 'team' }, maxVersions: 3, casRequired: true, deleteVersionAfter: '1h',
      removalPolicy: RemovalPolicy.RETAIN, provider: new SecretsProvider(s, 'p', { tokenEnv: 'MY_TOKEN' }),
    });
    const state = ConvergeTesting.desiredState(s);
    const r = state.resources.db;
    expect(r.spec.data).toEqual({ password: { $secret: { env: 'KV_TEST_PASSWORD' } } });
    expect(r.spec).toMatchObject({ mount: 'kv', customMetadata: { owner: 'team' }, maxVersions: 3, casRequired: true, deleteVersionAfter: '1h' });
    expect(r.removalPolicy).toBe('retain');
    expect(r.provider.tokenEnv).toBe('MY_TOKEN');
    expect(JSON.stringify(s.toTerraform())).not.toContain('hunter2-planted');
  });

  const segments = 'must be segments separated by "/": not empty, no leading or trailing "/", no empty, "." or ".." segment';
  test.each([
    ['', /test\/x: path "" must be segments separated by "\/": not empty/],
    ['/abs', /test\/x: path "\/abs" must be segments separated by "\/"/],
    ['a/../b', /test\/x: path "a\/..\/b" must be segments/],
    ['..', /path "\.\." must be segments/],
    ['folder/', /path "folder\/" must be segments .* \(a trailing "\/" names a folder\)/],
    ['a//b', /path "a\/\/b" must be segments/],
  ])('refuses path %p', (path, message) => {
    expect(() => new KvSecret(stack(), 'x', { path, data: {} })).toThrow(message);
  });

  test('data may hold an attribute of another construct; the dependency is recorded', () => {
    const s = stack();
    const a = new KvSecret(s, 'a', { path: 'a', data: { x: '1' } });
    new KvSecret(s, 'b', { path: 'b', data: { aVersion: a.version } });
    const b = ConvergeTesting.desiredState(s).resources.b;
    expect(b.spec.data).toEqual({ aVersion: { $ref: 'a', attr: 'version' } });
    expect(b.dependsOn).toEqual(['a']);
  });

  test('refuses bad data values, naming the key', () => {
    expect(() => new KvSecret(stack(), 'x', { path: 'p', data: { nested: { a: 1 } as any } }))
      .toThrow(/test\/x: data\.nested must be a string, a finite number, a boolean, a SecretValue or an attribute/);
    expect(() => new KvSecret(stack(), 'x', { path: 'p', data: { n: NaN } })).toThrow(/data\.n must be/);
    expect(() => new KvSecret(stack(), 'x', { path: 'p', data: { n: null as any } })).toThrow(/data\.n must be/);
  });

  test('refuses custom metadata beyond the limits', () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 65; i++) many[`k${i}`] = 'v';
    expect(() => new KvSecret(stack(), 'x', { path: 'p', data: {}, customMetadata: many }))
      .toThrow(/test\/x: customMetadata must have at most 64 keys \(got 65\)/);
    expect(() => new KvSecret(stack(), 'x', { path: 'p', data: {}, customMetadata: { ['k'.repeat(129)]: 'v' } }))
      .toThrow(/key must be 1 to 128 characters \(got 129\)/);
    expect(() => new KvSecret(stack(), 'x', { path: 'p', data: {}, customMetadata: { k: 'v'.repeat(513) } }))
      .toThrow(/test\/x: customMetadata\.k value must be 1 to 512 characters \(got 513\)/);
    expect(() => new KvSecret(stack(), 'x', { path: 'p', data: {}, customMetadata: { k: '' } }))
      .toThrow(/test\/x: customMetadata\.k value must be 1 to 512 characters \(got 0\)/);
    expect(() => new KvSecret(stack(), 'x', { path: 'p', data: {}, customMetadata: { ['k'.repeat(128)]: 'v'.repeat(512) } })).not.toThrow();
  });

  test('refuses bad maxVersions, deleteVersionAfter and mount', () => {
    expect(() => new KvSecret(stack(), 'x', { path: 'p', data: {}, maxVersions: -1 })).toThrow(/test\/x: maxVersions must be an integer from 0/);
    expect(() => new KvSecret(stack(), 'x', { path: 'p', data: {}, maxVersions: 1.5 })).toThrow(/maxVersions/);
    expect(() => new KvSecret(stack(), 'x', { path: 'p', data: {}, deleteVersionAfter: 'soon' })).toThrow(/test\/x: deleteVersionAfter "soon" is not a duration/);
    expect(() => new KvSecret(stack(), 'x', { path: 'p', data: {}, deleteVersionAfter: '1500ms' })).toThrow(/deleteVersionAfter "1500ms" must be a whole number of seconds/);
    expect(() => new KvSecret(stack(), 'x', { path: 'p', data: {}, deleteVersionAfter: '1h30m' })).not.toThrow();
    const mountRule = 'must be a mount path: not empty, no leading or trailing "/", no empty, "." or ".." segment';
    expect(() => new KvSecret(stack(), 'x', { path: 'p', data: {}, mount: '/secret' })).toThrow(`test/x: mount "/secret" ${mountRule}`);
    expect(() => new KvSecret(stack(), 'x', { path: 'p', data: {}, mount: '' })).toThrow(`test/x: mount "" ${mountRule}`);
  });
});

describe('KvEngineConfig', () => {
  test('synthesizes defaults and validates', () => {
    const s = stack();
    new KvEngineConfig(s, 'cfg');
    new KvEngineConfig(s, 'other', { mount: 'kv', maxVersions: 5, casRequired: true, deleteVersionAfter: '24h' });
    const rs = ConvergeTesting.desiredState(s).resources;
    expect(rs.cfg.kind).toBe('secrets.KvEngineConfig');
    expect(rs.cfg.spec).toEqual({ mount: 'secret', maxVersions: 0, casRequired: false, deleteVersionAfter: '0s' });
    expect(rs.other.spec).toEqual({ mount: 'kv', maxVersions: 5, casRequired: true, deleteVersionAfter: '24h' });
    expect(() => new KvEngineConfig(stack(), 'bad', { maxVersions: -2 })).toThrow(/test\/bad: maxVersions/);
    expect(() => new KvEngineConfig(stack(), 'bad', { deleteVersionAfter: 'x' })).toThrow(/test\/bad: deleteVersionAfter/);
  });
});

describe('KvSecret.fromPath and SecretValue.resourceAttribute', () => {
  test('a lookup synthesizes as a read of the kind by its import id, with the mount it names', () => {
    const s = stack();
    const existing = KvSecret.fromPath(s, 'existing', 'kv/team', 'app/db');
    new KvSecret(s, 'fed', { path: 'x', data: { v: existing.version, at: `${existing.mount}/${existing.path}` } });
    const rs = ConvergeTesting.desiredState(s).resources;
    expect(rs.existing).toMatchObject({
      kind: 'lookup:secrets.KvSecret', dataSource: true, spec: { id: 'kv/team/app/db', by: 'mount and path', known: { mount: 'kv/team', path: 'app/db' } },
    });
    expect(rs.fed.spec.data).toEqual({ v: { $ref: 'existing', attr: 'version' }, at: 'kv/team/app/db' });
    expect(rs.fed.dependsOn).toEqual(['existing']);
    expect(() => KvSecret.fromPath(stack(), 'bad', '/kv', 'x')).toThrow(/test\/bad: mount "\/kv" must be a mount path/);
  });

  test('a sensitive attribute as a SecretValue: a reference marked secret, in any prop that takes one', () => {
    const s = stack();
    const key = new TotpKey(s, 'a', { name: 'a', issuer: 'I', accountName: 'x' });
    new KvSecret(s, 'b', { path: 'b', data: { v: SecretValue.resourceAttribute(key.url) } });
    expect(ConvergeTesting.desiredState(s).resources.b.spec.data).toEqual({ v: { $ref: 'a', attr: 'url', secret: true } });
    expect(() => SecretValue.resourceAttribute('plain')).toThrow(/must be an attribute of a converge construct/);
  });
});
