import { TerraformStack } from 'cdktf';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import * as secrets from '../../lib/secrets';
import { synthApp } from '../support/harness';
import { run, SysTarget } from './sys-kinds-scenario';

/** An AppRole method and role whose secret id (two logins) is issued by converge and stored, with the role id, in a KV secret. */
function loginApp(prefix: string): string {
  return synthApp((st: TerraformStack) => {
    const method = new secrets.AuthBackend(st, 'approle', { path: `${prefix}-login`, type: 'approle' });
    const role = new secrets.AppRoleRole(st, 'app', { authBackend: method, name: 'app', tokenPolicies: ['app-read'], tokenTtl: '15m', secretIdNumUses: 2 });
    const secretId = new secrets.AppRoleSecretId(st, 'app-secret', { role });
    new secrets.KvSecret(st, 'login', { path: `${prefix}/login`, data: { roleId: role.roleId, secretId: SecretValue.resourceAttribute(secretId.secretId) } });
  });
}

/**
 * What a machine does with the ids converge issued: logs in over HTTP (no token needed) and uses the
 * token it gets; a secret id with two uses logs in twice and no more; a wrong or missing secret id is
 * refused, each answered as the real service answers it.
 */
export async function appRoleLoginScenario(t: SysTarget, prefix: string): Promise<void> {
  const m = `${prefix}-login`;
  const app = loginApp(prefix);
  let r = await run(t, 'apply', '--synth-dir', app, '--auto-approve');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const { roleId, secretId } = (await t.api('GET', `secret/data/${prefix}/login`)).body.data.data;
  const login = (body: unknown) => t.api('POST', `auth/${m}/login`, body, '');

  const first = await login({ role_id: roleId, secret_id: secretId });
  expect(first.status).toBe(200);
  const auth = first.body.auth;
  expect(auth).toMatchObject({ policies: ['app-read', 'default'], token_policies: ['app-read', 'default'], lease_duration: 900, metadata: { role_name: 'app' }, renewable: true });
  expect(typeof auth.client_token).toBe('string');
  expect(typeof auth.accessor).toBe('string');
  expect(auth.accessor).not.toBe('');
  // The token it got is a token of the service: it looks itself up, with the role's policies.
  const self = await t.api('GET', 'auth/token/lookup-self', undefined, auth.client_token);
  expect(self.status).toBe(200);
  expect(self.body.data).toMatchObject({ accessor: auth.accessor, policies: ['app-read', 'default'] });

  const refused = { status: 400, body: { errors: ['invalid role or secret ID'] } };
  expect(await login({ role_id: roleId, secret_id: 'not-the-secret-id' })).toEqual(refused);
  expect(await login({ role_id: 'not-a-role-id', secret_id: secretId })).toEqual(refused);
  expect(await login({ role_id: roleId })).toEqual({ status: 400, body: { errors: ['missing secret_id'] } });
  expect(await login({ secret_id: secretId })).toEqual({ status: 500, body: { errors: ['missing role_id'] } });
  // Its second use logs in; then it is used up.
  const second = await login({ role_id: roleId, secret_id: secretId });
  expect(second.status).toBe(200);
  expect(second.body.auth.client_token).not.toBe(auth.client_token);
  expect(await login({ role_id: roleId, secret_id: secretId })).toEqual(refused);

  r = await run(t, 'destroy', '--synth-dir', app, '--auto-approve');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
}
