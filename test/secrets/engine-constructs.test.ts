import { App, TerraformStack } from 'cdktf';
import { ConvergeTesting } from '../../lib/core/constructs/testing';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { KvSecretData } from '../../lib/secrets/kv/kv-secret-data';
import { KvSecretSubkeys } from '../../lib/secrets/kv/kv-secret-subkeys';
import { MeshScheme, MeshTokenConfig } from '../../lib/secrets/mesh-token/mesh-token-config';
import { MeshTokenRole, MeshTokenType } from '../../lib/secrets/mesh-token/mesh-token-role';
import { PlatformTokenConfig } from '../../lib/secrets/platform-token/platform-token-config';
import { PlatformTokenRole } from '../../lib/secrets/platform-token/platform-token-role';
import { PlatformTokenCredentials } from '../../lib/secrets/platform-token/platform-token-credentials';
import { MeshTokenCredentials } from '../../lib/secrets/mesh-token/mesh-token-credentials';
import { PushMfaMethod } from '../../lib/secrets/push-mfa/push-mfa-method';
import { TotpAlgorithm, TotpKey } from '../../lib/secrets/totp/totp-key';
import { TotpKeyInfo } from '../../lib/secrets/totp/totp-key-info';

const stack = () => new TerraformStack(new App(), 'test');
const spec = (s: TerraformStack, id: string) => ConvergeTesting.desiredState(s).resources[id];

describe('TotpKey', () => {
  test('a generated key synthesizes every default; url and barcode are references', () => {
    const s = stack();
    const k = new TotpKey(s, 'k', { name: 'ann', issuer: 'Acme', accountName: 'ann@acme.test' });
    expect(spec(s, 'k')).toMatchObject({
      kind: 'secrets.TotpKey',
      spec: {
        mount: 'totp', name: 'ann', generate: true, issuer: 'Acme', accountName: 'ann@acme.test', algorithm: 'SHA1',
        digits: 6, period: 30, skew: 1, keySize: 20, exported: true, qrSize: 200,
      },
    });
    // Typed string attributes: a reference wherever another construct's prop holds them; the url as a secret.
    new KvSecret(s, 'enrol', { path: 'mfa/ann', data: { url: SecretValue.resourceAttribute(k.url), qr: k.barcode } });
    expect(spec(s, 'enrol').spec.data).toEqual({ url: { $ref: 'k', attr: 'url', secret: true }, qr: { $ref: 'k', attr: 'barcode' } });
    expect(spec(s, 'enrol').dependsOn).toEqual(['k']);
  });

  test('an imported key is a SecretValue, never synthesized in clear; a url import leaves out what the url sets', () => {
    process.env.TOTP_TEST_KEY = 'JBSWY3DPEHPK3PXP';
    const s = stack();
    new TotpKey(s, 'k', { name: 'a', key: SecretValue.fromEnv('TOTP_TEST_KEY'), algorithm: TotpAlgorithm.SHA256, digits: 8, skew: 0 });
    new TotpKey(s, 'u', { name: 'b', url: SecretValue.fromEnv('TOTP_TEST_URL') });
    expect(spec(s, 'k').spec).toEqual({
      mount: 'totp', name: 'a', generate: false, key: { $secret: { env: 'TOTP_TEST_KEY' } }, issuer: '', accountName: '',
      algorithm: 'SHA256', digits: 8, period: 30, skew: 0,
    });
    expect(spec(s, 'u').spec).toEqual({ mount: 'totp', name: 'b', generate: false, url: { $secret: { env: 'TOTP_TEST_URL' } }, skew: 1 });
    expect(JSON.stringify(s.toTerraform())).not.toContain('JBSWY3DPEHPK3PXP');
  });

  test.each([
    [{ name: 'a', issuer: 'I', accountName: 'x', digits: 7 }, /test\/k: digits must be 6 or 8 \(got 7\)/],
    [{ name: 'a', issuer: 'I', accountName: 'x', skew: 2 }, /skew must be an integer from 0 to 1/],
    [{ name: 'a', issuer: 'I', accountName: 'x', period: 0 }, /period must be an integer from 1/],
    [{ name: 'a', issuer: 'I', accountName: 'x', qrSize: -1 }, /qrSize must be an integer from 0/],
    [{ name: 'a', accountName: 'x' }, /issuer is required when the key is generated/],
    [{ name: 'a', issuer: 'I' }, /accountName is required when the key is generated/],
    [{ name: 'a', generate: false }, /key or url is required/],
    [{ name: 'a', generate: true, issuer: 'I', accountName: 'x', key: SecretValue.fromEnv('K') }, /generate is true: key and url cannot be given/],
    [{ name: 'a', key: SecretValue.fromEnv('K'), url: SecretValue.fromEnv('U') }, /key and url are mutually exclusive/],
    [{ name: 'a', key: SecretValue.fromEnv('K'), qrSize: 100 }, /qrSize applies only to a generated key/],
    [{ name: 'a', url: SecretValue.fromEnv('U'), issuer: 'I' }, /issuer comes from the imported url/],
    [{ name: 'a/b', issuer: 'I', accountName: 'x' }, /name "a\/b" must be a non-empty name without "\/"/],
    [{ name: 'a', issuer: 'I', accountName: 'x', algorithm: 'MD5' as TotpAlgorithm }, /test\/k: algorithm "MD5" must be one of "SHA1", "SHA256", "SHA512"/],
  ])('refuses %o', (props, msg) => {
    expect(() => new TotpKey(stack(), 'k', props as any)).toThrow(msg);
  });
});

describe('PlatformTokenConfig and PlatformTokenRole', () => {
  test('defaults; the token is a SecretValue', () => {
    const s = stack();
    new PlatformTokenConfig(s, 'c', { token: SecretValue.fromEnv('PLATFORM_ADMIN') });
    new PlatformTokenRole(s, 'u', { name: 'dev', userId: 'user-1', ttl: '1h' });
    expect(spec(s, 'c').spec).toEqual({ mount: 'platform', address: 'https://app.terraform.io', token: { $secret: { env: 'PLATFORM_ADMIN' } } });
    expect(spec(s, 'u').spec).toEqual({ mount: 'platform', name: 'dev', organization: '', teamId: '', userId: 'user-1', ttl: '1h', maxTtl: '0s' });
  });

  test.each([
    [{ name: 'r', userId: 'u', organization: 'o' }, /userId conflicts with organization and teamId/],
    [{ name: 'r', userId: 'u', teamId: 't' }, /userId conflicts with organization and teamId/],
    [{ name: 'r' }, /organization teamId or userId is required/],
    [{ name: 'r', organization: 'o', ttl: '1h' }, /ttl and maxTtl apply only to user roles/],
    [{ name: 'r', userId: 'u', ttl: '2h', maxTtl: '1h' }, /ttl must not exceed maxTtl/],
    [{ name: 'r', userId: 'u', ttl: 'soon' }, /ttl "soon" is not a duration/],
  ])('role refuses %o', (props, msg) => {
    expect(() => new PlatformTokenRole(stack(), 'r', props)).toThrow(msg);
  });

  test('config refuses an address that is not a URL', () => {
    expect(() => new PlatformTokenConfig(stack(), 'c', { address: 'app.terraform.io' })).toThrow(/address "app.terraform.io" must be an http\(s\) URL/);
  });
});

describe('MeshTokenConfig and MeshTokenRole', () => {
  test('config defaults and rules', () => {
    const s = stack();
    new MeshTokenConfig(s, 'c', { address: 'mesh.local:8500', token: SecretValue.fromEnv('MESH_MGMT') });
    expect(spec(s, 'c').spec).toEqual({ mount: 'mesh', address: 'mesh.local:8500', scheme: 'http', token: { $secret: { env: 'MESH_MGMT' } }, caCert: '', clientCert: '' });
    expect(() => new MeshTokenConfig(stack(), 'c', { address: 'http://x:1' })).toThrow(/address "http:\/\/x:1" must be host:port/);
    expect(() => new MeshTokenConfig(stack(), 'c', { address: 'x:1', clientCert: 'PEM' })).toThrow(/clientCert and clientKey must be given together/);
    expect(() => new MeshTokenConfig(stack(), 'c', { address: 'x:1', scheme: 'ftp' as MeshScheme })).toThrow(/scheme "ftp" must be one of "http", "https"/);
  });

  test('the spec holds the fields of the mesh version', () => {
    const s = stack();
    new MeshTokenRole(s, 'new', { name: 'web', serviceIdentities: ['web:dc1,dc2'] });
    new MeshTokenRole(s, 'v14', { name: 'old', meshVersion: '1.4', meshPolicies: ['p'] });
    new MeshTokenRole(s, 'v13', { name: 'older', meshVersion: '1.3.2', policy: 'a2V5', lease: '1h' });
    expect(spec(s, 'new').spec).toEqual({
      mount: 'mesh', name: 'web', meshVersion: '1.13', meshPolicies: [], local: false, ttl: '0s', maxTtl: '0s', meshRoles: [],
      serviceIdentities: ['web:dc1,dc2'], nodeIdentities: [], meshNamespace: 'default', partition: 'default',
    });
    expect(spec(s, 'v14').spec).toEqual({
      mount: 'mesh', name: 'old', meshVersion: '1.4', meshPolicies: ['p'], local: false, ttl: '0s', maxTtl: '0s', tokenType: 'client', policy: '',
    });
    expect(spec(s, 'v13').spec).toEqual({ mount: 'mesh', name: 'older', meshVersion: '1.3.2', tokenType: 'client', policy: 'a2V5', lease: '1h' });
  });

  test.each([
    [{ name: 'r' }, /at least one of meshPolicies, meshRoles, serviceIdentities or nodeIdentities is required/],
    [{ name: 'r', meshVersion: '1.6' }, /at least one of meshPolicies, meshRoles or serviceIdentities is required/],
    [{ name: 'r', meshPolicies: ['p'], tokenType: MeshTokenType.MANAGEMENT }, /tokenType was removed in mesh 1\.11 \(meshVersion is 1\.13\)/],
    [{ name: 'r', meshPolicies: ['p'], policy: 'a2V5' }, /policy was removed in mesh 1\.11/],
    [{ name: 'r', meshVersion: '1.10', meshPolicies: ['p'], partition: 'x' }, /partition needs mesh 1\.11 or later \(meshVersion is 1\.10\)/],
    [{ name: 'r', meshVersion: '1.7', nodeIdentities: ['n:dc1'] }, /nodeIdentities needs mesh 1\.8 or later/],
    [{ name: 'r', meshVersion: '1.4', serviceIdentities: ['web'] }, /serviceIdentities needs mesh 1\.5 or later/],
    [{ name: 'r', meshVersion: '1.4' }, /meshPolicies is required with mesh 1\.4/],
    [{ name: 'r', meshVersion: '1.3' }, /policy is required below mesh 1\.4 unless tokenType is management/],
    [{ name: 'r', meshVersion: '1.5', lease: '1h', meshPolicies: ['p'] }, /lease was removed in mesh 1\.4/],
    [{ name: 'r', nodeIdentities: ['n1'] }, /nodeIdentities\[0\] "n1" must be <node>:<datacenter>/],
    [{ name: 'r', serviceIdentities: ['web:'] }, /serviceIdentities\[0\] "web:" must be/],
    [{ name: 'r', meshVersion: 'latest', meshPolicies: ['p'] }, /meshVersion "latest" must be major.minor/],
  ])('role refuses %o', (props, msg) => {
    expect(() => new MeshTokenRole(stack(), 'r', props)).toThrow(msg);
  });

  test('below 1.11 a management token type needs no policies', () => {
    expect(() => new MeshTokenRole(stack(), 'r', { name: 'm', meshVersion: '1.10', tokenType: MeshTokenType.MANAGEMENT })).not.toThrow();
  });
});

describe('token roles: typed references, lookups and credential data sources', () => {
  test('credentials read the role they are given: its mount and name, after it; the token is a string that renders as a reference', () => {
    const s = stack();
    const role = new MeshTokenRole(s, 'web-role', { name: 'web', mount: 'mesh-prod', serviceIdentities: ['web:dc1'] });
    const creds = new MeshTokenCredentials(s, 'web-token', { role });
    const existing = PlatformTokenRole.fromName(s, 'ci-role', 'platform', 'ci');
    const ci = new PlatformTokenCredentials(s, 'ci-token', { role: existing });
    new KvSecret(s, 'stored', { path: 'tokens/web', data: { token: creds.token, ci: ci.token } });
    expect(typeof creds.token).toBe('string');
    expect(spec(s, 'web-token')).toMatchObject({ kind: 'secrets.MeshTokenCredentials', dataSource: true, spec: { mount: 'mesh-prod', role: 'web' }, dependsOn: ['web-role'] });
    expect(spec(s, 'ci-role')).toMatchObject({ kind: 'lookup:secrets.PlatformTokenRole', dataSource: true, spec: { id: 'platform/role/ci' } });
    expect(spec(s, 'ci-token')).toMatchObject({ spec: { mount: 'platform', role: 'ci' }, dependsOn: ['ci-role'] });
    expect(spec(s, 'stored').spec.data).toEqual({ token: { $ref: 'web-token', attr: 'token' }, ci: { $ref: 'ci-token', attr: 'token' } });
    expect(spec(s, 'stored').dependsOn).toEqual(['ci-token', 'web-token']);
    expect(existing.roleName).toBe('ci');
  });

  test('a lookup refuses a mount or name the service cannot address, naming the construct', () => {
    expect(() => MeshTokenRole.fromName(stack(), 'r', 'mesh', 'a/b')).toThrow(/test\/r: name "a\/b" must be one path segment: letters/);
    expect(() => PlatformTokenRole.fromName(stack(), 'r', '/platform', 'ci')).toThrow(/test\/r: mount "\/platform" must be a mount path/);
  });
});

describe('PushMfaMethod', () => {
  test('keys from SecretValues; methodId is a reference', () => {
    const s = stack();
    const m = new PushMfaMethod(s, 'm', {
      methodName: 'push', secretKey: SecretValue.fromEnv('PUSH_SK'), integrationKey: SecretValue.fromEnv('PUSH_IK'), apiHostname: 'api.push.test',
    });
    expect(spec(s, 'm').spec).toEqual({
      methodName: 'push', secretKey: { $secret: { env: 'PUSH_SK' } }, integrationKey: { $secret: { env: 'PUSH_IK' } },
      apiHostname: 'api.push.test', usernameFormat: '', pushInfo: '', usePasscode: false,
    });
    new KvSecret(s, 'id', { path: 'mfa/method', data: { id: m.methodId } });
    expect(spec(s, 'id').spec.data).toEqual({ id: { $ref: 'm', attr: 'methodId' } });
    expect(() => new PushMfaMethod(stack(), 'm', { methodName: '', secretKey: SecretValue.fromEnv('A'), integrationKey: SecretValue.fromEnv('B'), apiHostname: 'h' }))
      .toThrow(/test\/m: methodName "" must be one path segment: letters/);
    expect(() => new PushMfaMethod(stack(), 'm', { methodName: 'x', secretKey: SecretValue.fromEnv('A'), integrationKey: SecretValue.fromEnv('B'), apiHostname: 'http://h' }))
      .toThrow(/test\/m: apiHostname "http:\/\/h" must be a host name/);
    expect(() => new PushMfaMethod(stack(), 'm', { methodName: 'x', secretKey: 'plain' as any, integrationKey: SecretValue.fromEnv('B'), apiHostname: 'h' }))
      .toThrow(/secretKey must be a SecretValue/);
  });
});

describe('data sources', () => {
  test('synthesize as data sources with their defaults', () => {
    const s = stack();
    const d = new KvSecretData(s, 'd', { path: 'app/db' });
    new KvSecretSubkeys(s, 'k', { path: 'app/db', depth: 1 });
    new TotpKeyInfo(s, 't', { name: 'ann' });
    expect(spec(s, 'd')).toMatchObject({ kind: 'secrets.KvSecretData', dataSource: true, spec: { mount: 'secret', path: 'app/db', version: 0 } });
    expect(spec(s, 'k').spec).toEqual({ mount: 'secret', path: 'app/db', version: 0, depth: 1 });
    expect(spec(s, 't')).toMatchObject({ kind: 'secrets.TotpKeyInfo', dataSource: true, spec: { mount: 'totp', name: 'ann' } });
    const info = new TotpKeyInfo(s, 'ti', { name: 'bob' });
    // Typed getters: one key of the data (a sensitive reference), numbers and strings of the outputs.
    new KvSecret(s, 'fed', {
      path: 'fed', data: { password: SecretValue.resourceAttribute(d.field('password')), v: d.version, at: d.createdTime, issuer: info.issuer, digits: info.digits },
    });
    expect(spec(s, 'fed').spec.data).toEqual({
      password: { $ref: 'd', attr: 'data.password', secret: true }, v: { $ref: 'd', attr: 'version' }, at: { $ref: 'd', attr: 'createdTime' },
      issuer: { $ref: 'ti', attr: 'issuer' }, digits: { $ref: 'ti', attr: 'digits' },
    });
    expect(() => new KvSecretData(stack(), 'd', { path: '/x' })).toThrow(/test\/d: path "\/x" must be segments separated by "\/"/);
    expect(() => new KvSecretData(stack(), 'd', { path: 'x' }).field('')).toThrow(/test\/d: field\(\) takes a key of the data/);
    expect(() => new KvSecretSubkeys(stack(), 'd', { path: 'x', depth: -1 })).toThrow(/depth must be an integer from 0/);
  });
});
