import * as path from 'path';
import { cliAsync, startWorld, synthApp, tempDir, TestWorld } from '../support/harness';
import * as secrets from '../../lib/secrets';
import { authMethodsScenario, databaseMountRefScenario, mountRefScenario, sysScenario, SysTarget } from './sys-kinds-scenario';
import { appRoleLoginScenario } from './approle-login-scenario';
import { appRoleScenario } from './approle-scenario';


// SecretsMount, SecretsPolicy and LeastPrivilegePolicy end to end through the real CLI against the
// emulator, which serves sys/mounts and sys/policies/acl as OpenBao does (the same scenario runs
// against a real OpenBao in sys-kinds.openbao.test.ts).
describe('secrets mounts and policies through the CLI, against the emulator', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  const target = (): SysTarget => ({
    env: { ...world.env, CONVERGE_DIR: path.join(tempDir(), '.converge') },
    api: async (method, p, body, token = world.env.SECRETS_TOKEN!) => {
      const r = await fetch(`${world.env.SECRETS_ADDR}/v1/${p}`, {
        method, headers: { 'x-secrets-token': token, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await r.text();
      return { status: r.status, body: text ? JSON.parse(text) : undefined };
    },
  });

  test('plan, apply, tune in place, drift, replace, least privilege, import, destroy', async () => {
    await sysScenario(target(), 'emu');
  });

  test('two auth methods read from one list: created, no-op, tuned (accessors kept), drift seen and repaired, destroyed', async () => {
    await authMethodsScenario(target(), 'emu');
  });

  test('constructs placed in mounts by reference, all created by one apply', async () => {
    await mountRefScenario(target(), 'emu');
  });

  test('a database mount of the app with a connection and a role placed in it: created in order, destroyed in reverse', async () => {
    await databaseMountRefScenario(target(), 'emu');
  });

  test('AppRole: method, role, secret id: apply, keep, update by the least-privilege token, reissue, import, destroy', async () => {
    await appRoleScenario(target(), 'emu');
  });

  test('AppRole login with the role id and secret id converge issued: a token of the role, the secret id used up, refusals', async () => {
    await appRoleLoginScenario(target(), 'emu');
  });

  test('a kv mount other than version 2 is refused by the emulator with the reason, nothing mounted', async () => {
    const t = target();
    const app = synthApp((st) => { new secrets.SecretsMount(st, 'v1', { path: 'kv-one', type: 'kv' }); });
    const r = await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], t.env);
    expect(r.status).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/v1[\s\S]*400[\s\S]*key-value version 2 only/);
    expect((await t.api('GET', 'sys/mounts/kv-one')).status).toBe(400);
  });
});
