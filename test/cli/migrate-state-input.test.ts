import * as fs from 'fs';
import * as path from 'path';
import { planMigration } from '../../lib/cli/migrate/plan-migration';
import { readTerraformState } from '../../lib/cli/migrate/tf-state';
import { FIXTURES } from './migrate-support';

// The two shapes a Terraform state comes in, and what is made of them without any server.
describe('reading a Terraform state', () => {
  test('a state file and terraform show -json give the same addresses, modules and instance keys', () => {
    const raw = readTerraformState(fs.readFileSync(path.join(FIXTURES, 'vault.tfstate'), 'utf8'), 'vault.tfstate');
    expect(raw.map((r) => r.address)).toContain('vault_kv_secret_v2.env["prod"]');
    expect(raw.map((r) => r.address)).toContain('data.vault_policy_document.app');
    expect(raw.find((r) => r.address === 'vault_kv_secret_v2.tenant[1]')!.provider).toBe('registry.terraform.io/hashicorp/vault');
    const shown = readTerraformState(fs.readFileSync(path.join(FIXTURES, 'consul.show.json'), 'utf8'), 'consul.show.json');
    const router = shown.find((r) => r.address === 'module.payments.consul_config_entry.router')!;
    expect(router.module).toBe('module.payments');
    expect(router.values.kind).toBe('service-router');
  });

  test.each([
    ['{', 'is not JSON'],
    ['{"version":3,"modules":[]}', 'is a Terraform state of format 3: converge reads format 4'],
    ['{"hello":1}', 'is neither a Terraform state (format 4) nor terraform show -json output'],
  ])('refuses %s clearly', (text, message) => {
    expect(() => readTerraformState(text, 'x.tfstate')).toThrow(message);
  });

  test('two resources of one name in different types get construct ids that say their type; module resources their module', () => {
    const res = (type: string, name: string, values: Record<string, unknown>, module = '') => ({
      address: `${module ? `${module}.` : ''}${type}.${name}`, mode: 'managed' as const, type, name, module,
      provider: `registry.terraform.io/hashicorp/${type.split('_')[0]}`, values,
    });
    const m = planMigration([
      res('consul_config_entry', 'api', { kind: 'service-defaults', name: 'api', config_json: '{"Protocol":"http"}' }),
      res('vault_kv_secret_v2', 'api', { mount: 'secret', name: 'api', data_json: '{"k":"v-secret-1"}' }),
      res('vault_kv_secret_v2', 'api', { mount: 'secret', name: 'mod/api', data_json: '{"k":"v-secret-2"}' }, 'module.app'),
    ]);
    expect(m.constructs.map((c) => c.constructId)).toEqual(['consul_config_entry-api', 'vault_kv_secret_v2-api', 'app-api']);
    expect(m.constructs.flatMap((c) => c.secrets.map((s) => s.name))).toEqual(['VAULT_KV_SECRET_V2_API_K', 'VAULT_KV_SECRET_V2_APP_API_K']);
  });

  test('a second resource managing an object already taken is listed, not made twice', () => {
    const kv = (name: string) => ({ address: `vault_kv_secret_v2.${name}`, mode: 'managed' as const, type: 'vault_kv_secret_v2', name, module: '',
      provider: 'registry.terraform.io/hashicorp/vault', values: { mount: 'secret', name: 'shared/db', data_json: '{"k":"v-dup"}' } });
    const m = planMigration([kv('a'), kv('b')]);
    expect(m.constructs.map((c) => c.tfAddress)).toEqual(['vault_kv_secret_v2.a']);
    expect(m.skipped).toEqual([{ address: 'vault_kv_secret_v2.b', reason: 'the same object as vault_kv_secret_v2.a (secret/shared/db)' }]);
  });
});
