import { SecretValue } from '../../../lib/core/constructs/secret-value';
import { PushMfaMethod } from '../../../lib/secrets/push-mfa/push-mfa-method';
import { cliAsync, startWorld, synthApp, TestWorld } from '../../support/harness';

// The push-MFA read answers the method's keys: the engine compares them with the app's as secrets,
// so a key changed outside converge shows as drift (masked) and the apply puts the app's back.
describe('PushMfaMethod keys changed outside converge', () => {
  let world: TestWorld;
  const appKey = 'planted-push-secret-key-77b1e0';
  const rogue = 'planted-rogue-secret-key-0c4d9a';
  const api = (method: string, path: string, body?: unknown) => fetch(`${world.env.SECRETS_ADDR}/v1/${path}`, {
    method, headers: { 'x-secrets-token': world.env.SECRETS_TOKEN!, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined,
  });
  beforeAll(async () => { world = await startWorld({}, { PUSH_SECRET_KEY: appKey }); });
  afterAll(async () => world?.stop());

  test('show as masked drift and are put back', async () => {
    const dir = synthApp((stack) => {
      new PushMfaMethod(stack, 'push', {
        methodName: 'drift', apiHostname: 'api.push.example.com', secretKey: SecretValue.fromEnv('PUSH_SECRET_KEY'), integrationKey: SecretValue.unsafePlainText('ik-1'),
      });
    }, 'push-drift');
    expect((await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env)).status).toBe(0);
    const id = ((await (await api('LIST', 'identity/mfa/method/pushmfa')).json()) as { data: { keys: string[] } }).data.keys[0];
    const read = async () => ((await (await api('GET', `identity/mfa/method/pushmfa/${id}`)).json()) as { data: Record<string, string> }).data;
    const m = await read();
    expect((await api('POST', `identity/mfa/method/pushmfa/${id}`, {
      method_name: m.name, api_hostname: m.api_hostname, integration_key: m.integration_key, secret_key: rogue,
    })).status).toBeLessThan(300);

    const plan = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env);
    expect(plan.status).toBe(2);
    expect(plan.stdout).toMatch(/secretKey = \(sensitive, changed outside converge\)/);
    expect(plan.stdout).toMatch(/secretKey = \(sensitive, changed\)/);
    for (const v of [appKey, rogue]) expect(plan.stdout + plan.stderr).not.toContain(v);
    expect((await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env)).status).toBe(0);
    expect((await read()).secret_key).toBe(appKey);
    expect((await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env)).status).toBe(0);
  });
});
