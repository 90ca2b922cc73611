import { TerraformStack } from 'cdktf';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import * as secrets from '../../lib/secrets';
import { synthApp } from '../support/harness';
import { run, SysTarget } from './sys-kinds-scenario';

/** An AppRole method, a role, a secret id of it stored in a KV secret, and the stack's least-privilege policy. */
export function appRoleApp(prefix: string, v: { tokenTtl: string; withSecretId: boolean }): string {
  return synthApp((st: TerraformStack) => {
    const method = new secrets.AuthBackend(st, 'approle', { path: `${prefix}-approle`, type: 'approle', description: 'machines' });
    const role = new secrets.AppRoleRole(st, 'ci', {
      authBackend: method, name: 'ci', tokenPolicies: ['b-read', 'a-read', 'b-read'], tokenTtl: v.tokenTtl, secretIdTtl: '1h', secretIdNumUses: 5,
    });
    if (v.withSecretId) {
      const secretId = new secrets.AppRoleSecretId(st, 'ci-secret', { role });
      new secrets.KvSecret(st, 'login', {
        path: `${prefix}/login`, data: { roleId: role.roleId, secretId: SecretValue.resourceAttribute(secretId.secretId) },
      });
    }
    new secrets.LeastPrivilegePolicy(st, 'ci-policy', { name: `${prefix}-ci` });
  });
}

/**
 * Plan, apply (the secret id issued during the apply and stored), no-op plan (the secret id kept), a
 * role updated in place by a token holding only the least-privilege policy (its role id kept), a secret
 * id destroyed outside converge issued again, import, destroy (the secret id destroyed, role and method gone).
 */
export async function appRoleScenario(t: SysTarget, prefix: string): Promise<void> {
  const m = `${prefix}-approle`;
  const accessors = async (): Promise<string[]> => {
    const r = await t.api('LIST', `auth/${m}/role/ci/secret-id`);
    return r.status === 404 ? [] : r.body.data.keys;
  };
  const v1 = appRoleApp(prefix, { tokenTtl: '20m', withSecretId: true });
  let r = await run(t, 'apply', '--synth-dir', v1, '--auto-approve');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect((await t.api('GET', `sys/auth/${m}`)).body.data).toMatchObject({ type: 'approle', description: 'machines' });
  const role = (await t.api('GET', `auth/${m}/role/ci`)).body.data;
  expect(role).toMatchObject({ token_ttl: 1200, secret_id_ttl: 3600, secret_id_num_uses: 5, bind_secret_id: true });
  expect([...role.token_policies].sort()).toEqual(['a-read', 'b-read']);
  const roleId = (await t.api('GET', `auth/${m}/role/ci/role-id`)).body.data.role_id;
  const first = await accessors();
  expect(first).toHaveLength(1);
  const stored = (await t.api('GET', `secret/data/${prefix}/login`)).body.data.data;
  expect(stored.roleId).toBe(roleId);
  expect(stored.secretId).toMatch(/^[0-9a-f-]{36}$/);
  r = await run(t, 'output', '--json');
  expect(r.stdout).not.toContain(stored.secretId);

  r = await run(t, 'plan', '--synth-dir', v1, '--detailed-exitcode');
  expect(r.stdout).toMatch(/No changes/);
  expect(r.status).toBe(0);
  expect(await accessors()).toEqual(first);

  // `converge policy` holds sudo on the method's paths; a token holding only it updates the role in place.
  r = await run(t, 'policy', '--synth-dir', v1, '--json');
  const printed = JSON.parse(r.stdout).secretsPolicy as string;
  expect(printed).toContain(`path "sys/auth/${m}" { capabilities = ["read", "update", "delete", "sudo"] }`);
  const token = (await t.api('POST', 'auth/token/create', { policies: [`${prefix}-ci`] })).body.auth.client_token as string;
  const ci = { ...t, env: { ...t.env, SECRETS_TOKEN: token } };
  const v2 = appRoleApp(prefix, { tokenTtl: '30m', withSecretId: true });
  r = await run(ci, 'plan', '--synth-dir', v2, '--detailed-exitcode');
  expect(r.stderr).toBe('');
  expect(r.stdout).toMatch(/ci \(secrets\.AppRoleRole\)[^\n]*updated/);
  expect(r.status).toBe(2);
  r = await run(ci, 'apply', '--synth-dir', v2, '--auto-approve');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect((await t.api('GET', `auth/${m}/role/ci`)).body.data.token_ttl).toBe(1800);
  expect((await t.api('GET', `auth/${m}/role/ci/role-id`)).body.data.role_id).toBe(roleId);

  // A secret id destroyed outside converge: the next apply issues a new one and stores it.
  expect((await t.api('POST', `auth/${m}/role/ci/secret-id-accessor/destroy`, { secret_id_accessor: first[0] })).status).toBe(204);
  r = await run(t, 'apply', '--synth-dir', v2, '--auto-approve');
  expect(r.status).toBe(0);
  const second = await accessors();
  expect(second).toHaveLength(1);
  expect(second[0]).not.toBe(first[0]);
  expect((await t.api('GET', `secret/data/${prefix}/login`)).body.data.data.secretId).not.toBe(stored.secretId);

  // Import into a fresh state.
  const fresh = { ...t, env: { ...t.env, CONVERGE_DIR: `${t.env.CONVERGE_DIR}-import` } };
  const imported = synthApp((st: TerraformStack) => {
    const method = new secrets.AuthBackend(st, 'approle', { path: m, type: 'approle', description: 'machines' });
    new secrets.AppRoleRole(st, 'ci', { authBackend: method, name: 'ci', tokenPolicies: ['a-read', 'b-read'], tokenTtl: '30m', secretIdTtl: '1h', secretIdNumUses: 5 });
  });
  r = await run(fresh, 'import', 'approle', m, '--synth-dir', imported);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  r = await run(fresh, 'import', 'ci', `${m}/role/ci`, '--synth-dir', imported);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  r = await run(fresh, 'plan', '--synth-dir', imported, '--detailed-exitcode');
  expect(r.stdout).toMatch(/No changes/);
  expect(r.status).toBe(0);

  r = await run(t, 'destroy', '--synth-dir', v2, '--auto-approve');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect((await t.api('GET', `sys/auth/${m}`)).status).toBe(400);
  expect((await t.api('GET', `sys/policies/acl/${prefix}-ci`)).status).toBe(404);
}
