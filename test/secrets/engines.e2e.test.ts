import { TerraformStack } from 'cdktf';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { KvSecretData } from '../../lib/secrets/kv/kv-secret-data';
import { MeshTokenConfig } from '../../lib/secrets/mesh-token/mesh-token-config';
import { MeshTokenRole } from '../../lib/secrets/mesh-token/mesh-token-role';
import { PlatformTokenConfig } from '../../lib/secrets/platform-token/platform-token-config';
import { PlatformTokenRole } from '../../lib/secrets/platform-token/platform-token-role';
import { PushMfaMethod } from '../../lib/secrets/push-mfa/push-mfa-method';
import { TotpKey } from '../../lib/secrets/totp/totp-key';
import { TotpKeyInfo } from '../../lib/secrets/totp/totp-key-info';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// End to end through the real CLI (dist/) against the bundled emulator: TOTP, platform-token,
// mesh-token and push-MFA constructs, and the KV and TOTP data sources.
describe('secrets engines through the CLI', () => {
  let world: TestWorld;
  const PUSH_SECRET = 'push-secret-key-5c1e9b';
  beforeAll(async () => { world = await startWorld({}, { PUSH_SK: PUSH_SECRET, PUSH_IK: 'push-integration-key' }); });
  afterAll(async () => { await world.stop(); });

  const secrets = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${world.env.SECRETS_ADDR}/v1/${path}`, {
      method, headers: { 'x-secrets-token': world.env.SECRETS_TOKEN!, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };

  // Data sources are read at plan time: they join once the objects they read exist.
  const build = (o: { digits: number; passcode: boolean; reads?: boolean }) => synthApp((st: TerraformStack) => {
    new TotpKey(st, 'mfa', { name: 'ann', issuer: 'Acme', accountName: 'ann@acme.test', digits: o.digits, qrSize: 64 });
    new PlatformTokenConfig(st, 'platform', { address: world.env.PLATFORM_ADDRESS, token: SecretValue.fromEnv('PLATFORM_TOKEN') });
    new PlatformTokenRole(st, 'ci', { name: 'ci', userId: 'admin', ttl: '1h' });
    new MeshTokenConfig(st, 'mesh', { address: new URL(world.env.MESH_HTTP_ADDR!).host, token: SecretValue.fromEnv('MESH_HTTP_TOKEN') });
    new MeshTokenRole(st, 'web', { name: 'web', serviceIdentities: ['web:dc1'], ttl: '10m' });
    new PushMfaMethod(st, 'push', {
      methodName: 'push', secretKey: SecretValue.fromEnv('PUSH_SK'), integrationKey: SecretValue.fromEnv('PUSH_IK'),
      apiHostname: 'api.push.test', usePasscode: o.passcode,
    });
    new KvSecret(st, 'db', { path: 'e2e/db', data: { user: 'app', password: SecretValue.fromEnv('PUSH_SK') } });
    if (o.reads) {
      new TotpKeyInfo(st, 'mfa-info', { name: 'ann' });
      new KvSecretData(st, 'db-data', { path: 'e2e/db' });
    }
  });

  test('create, no-op plan, sensitive outputs, update, replace with its warning, import, destroy', async () => {
    const v1 = build({ digits: 6, passcode: false });
    let r = await cliAsync(['apply', '--synth-dir', v1, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((await secrets('GET', 'totp/keys/ann')).body.data).toMatchObject({ issuer: 'Acme', digits: 6 });
    expect((await secrets('GET', 'platform/creds/ci')).body.data.token).toMatch(/^emu\./);
    expect((await secrets('GET', 'mesh/creds/web')).status).toBe(200);
    const methods = (await secrets('GET', 'identity/mfa/method/pushmfa?list=true')).body.data.keys;
    expect(methods).toHaveLength(1);

    r = await cliAsync(['plan', '--synth-dir', v1, '--detailed-exitcode'], world.env);
    expect(r.stdout).toMatch(/No changes/);
    expect(r.status).toBe(0);

    const withReads = build({ digits: 6, passcode: false, reads: true });
    r = await cliAsync(['apply', '--synth-dir', withReads, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    r = await cliAsync(['output', '--json'], world.env);
    expect(r.stdout).not.toMatch(/otpauth:/);
    expect(r.stdout).not.toContain(PUSH_SECRET);
    r = await cliAsync(['output', '--json', '--show-sensitive'], world.env);
    expect(r.stdout).toMatch(/otpauth:\/\/totp\/Acme:ann@acme\.test\?algorithm=SHA1&digits=6/);

    // In-place update of the push-MFA method; a TOTP digits change replaces the key, with the warning.
    const v2 = build({ digits: 8, passcode: true });
    r = await cliAsync(['plan', '--synth-dir', v2, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/mfa \(secrets\.TotpKey\)[^\n]*replaced/);
    expect(r.stdout).toMatch(/enrolled/);
    expect(r.stdout).toMatch(/push \(secrets\.PushMfaMethod\)[^\n]*updated/);
    r = await cliAsync(['apply', '--synth-dir', v2, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect((await secrets('GET', 'totp/keys/ann')).body.data.digits).toBe(8);
    expect((await secrets('GET', `identity/mfa/method/pushmfa/${methods[0]}`)).body.data.use_passcode).toBe(true);
    r = await cliAsync(['plan', '--synth-dir', v2, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);

    // Drift of a readable field is seen and converged back.
    await secrets('POST', 'platform/role/ci', { user_id: 'admin', ttl: '2h' });
    r = await cliAsync(['plan', '--synth-dir', v2, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/ci \(secrets\.PlatformTokenRole\)/);
    r = await cliAsync(['apply', '--synth-dir', v2, '--auto-approve'], world.env);
    expect((await secrets('GET', 'platform/role/ci')).body.data.ttl).toBe(3600);

    // Import by API path.
    await cliAsync(['state', 'rm', 'web'], world.env);
    r = await cliAsync(['import', 'web', 'mesh/roles/web', '--synth-dir', v2], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    r = await cliAsync(['plan', '--synth-dir', v2, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);

    r = await cliAsync(['destroy', '--synth-dir', v2, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((await secrets('GET', 'totp/keys/ann')).status).toBe(404);
    expect((await secrets('GET', 'platform/role/ci')).status).toBe(404);
    expect((await secrets('GET', 'mesh/roles/web')).status).toBe(404);
    expect((await secrets('GET', 'identity/mfa/method/pushmfa?list=true')).status).toBe(404);
  });
});
