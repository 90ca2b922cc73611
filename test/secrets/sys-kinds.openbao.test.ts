import * as path from 'path';
import { startOpenBao, TestOpenBao } from '../support/openbao';
import { describeWithTool, realTools } from '../support/real-tools';
import { tempDir } from '../support/harness';
import { authMethodsScenario, databaseMountRefScenario, mountRefScenario, sysScenario, SysTarget } from './sys-kinds-scenario';
import { appRoleLoginScenario } from './approle-login-scenario';
import { appRoleScenario } from './approle-scenario';

jest.setTimeout(300_000);

// The scenario of sys-kinds.e2e.test.ts against a real OpenBao dev server: the same plans and outcomes.
describeWithTool('BAO', 'secrets mounts and policies through the CLI, against a real OpenBao', () => {
  let bao: TestOpenBao;
  beforeAll(async () => { bao = await startOpenBao(realTools().BAO!); });
  afterAll(async () => { await bao?.stop(); });

  const target = (): SysTarget => ({
    env: {
      PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', CONVERGE_STATE_KEY: process.env.CONVERGE_STATE_KEY,
      SECRETS_ADDR: bao.address, SECRETS_TOKEN: bao.rootToken, SECRETS_TOKEN_HEADER: 'X-Vault-Token',
      CONVERGE_DIR: path.join(tempDir(), '.converge'),
    },
    api: (method, p, body, token) => bao.api(method, p, body, token),
  });

  test('plan, apply, tune in place, drift, replace, least privilege, import, destroy', async () => {
    await sysScenario(target(), 'bao');
  });

  test('two auth methods read from one list: created, no-op, tuned (accessors kept), drift seen and repaired, destroyed', async () => {
    await authMethodsScenario(target(), 'bao');
  });

  test('constructs placed in mounts by reference, all created by one apply', async () => {
    await mountRefScenario(target(), 'bao');
  });

  test('a database mount of the app with a connection and a role placed in it: created in order, destroyed in reverse', async () => {
    await databaseMountRefScenario(target(), 'bao');
  });

  test('AppRole: method, role, secret id: apply, keep, update by the least-privilege token, reissue, import, destroy', async () => {
    await appRoleScenario(target(), 'bao');
  });

  test('AppRole login with the role id and secret id converge issued: a token of the role, the secret id used up, refusals', async () => {
    await appRoleLoginScenario(target(), 'bao');
  });
});
