import * as fs from 'fs';
import * as path from 'path';
import { RealConsul, startConsul } from '../support/consul';
import { startWorld, tempDir, TestWorld } from '../support/harness';
import { startOpenBao, TestOpenBao } from '../support/openbao';
import { describeWithTool, realTools } from '../support/real-tools';
import { apiCall, appDir, attributesOf, expectNoSecret, FIXTURES, printedVariables, run, seedConsul, seedVault, showResources, typeCheck } from './migrate-support';

jest.setTimeout(600_000);

/** The variables' values, read from the vault state where the migration said each one is. */
function vaultVariables(stdout: string, state: any): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, where] of printedVariables(stdout)) {
    const r = state.resources.find((x: any) => where.address.startsWith(`${x.type}.${x.name}`));
    const inst = r.instances.find((i: any) => where.address === `${r.type}.${r.name}${i.index_key === undefined ? '' : `[${JSON.stringify(i.index_key)}]`}`);
    env[name] = where.attribute.startsWith('data_json.') ? JSON.parse(inst.attributes.data_json)[where.attribute.slice(10)] : inst.attributes.postgresql[0].password;
  }
  return env;
}

describeWithTool('BAO', 'converge migrate terraform: a vault state, against a real OpenBao', () => {
  const stateFile = path.join(FIXTURES, 'vault.tfstate');
  const state = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
  let bao: TestOpenBao;
  let world: TestWorld;
  beforeAll(async () => {
    [bao, world] = await Promise.all([startOpenBao(realTools().BAO!, { database: 'database' }), startWorld()]);
    await seedVault(state, apiCall(bao.address, 'X-Vault-Token', bao.rootToken));
  });
  afterAll(async () => { await Promise.all([bao?.stop(), world?.stop()]); });

  test('imports every object OpenBao holds; the plan with the variables set is a no-op; no secret written or printed', async () => {
    const dir = appDir();
    const env = { SECRETS_ADDR: bao.address, SECRETS_TOKEN: bao.rootToken, SECRETS_TOKEN_HEADER: 'X-Vault-Token', CONVERGE_DIR: path.join(tempDir(), '.converge') };
    const migrated = await run(world, dir, ['migrate', 'terraform', '--state', stateFile, '--out', 'imported.ts'], env);
    expect(migrated.stderr).toBe('');
    expect(migrated.status).toBe(0);
    expect(migrated.stdout).toMatch(/Imported 28 object\(s\) into stack imported\./);
    expect(typeCheck(dir)).toEqual({ status: 0, output: '' });
    const plan = await run(world, dir, ['plan', '--detailed-exitcode'], { ...env, ...vaultVariables(migrated.stdout, state) });
    expect(plan.stderr).toBe('');
    expect(plan.status).toBe(0);
    const secrets = [...attributesOf(state, 'vault_kv_secret_v2').flatMap((a) => Object.values(JSON.parse(a.data_json)).filter((x): x is string => typeof x === 'string')),
      ...attributesOf(state, 'vault_database_secret_backend_connection').map((a) => a.postgresql[0].password)];
    expectNoSecret(secrets, [dir, path.dirname(env.CONVERGE_DIR)], [migrated, plan]);
  });
});

describeWithTool('CONSUL', 'converge migrate terraform: a consul state, against a real Consul', () => {
  const stateFile = path.join(FIXTURES, 'consul.show.json');
  const resources = showResources(JSON.parse(fs.readFileSync(stateFile, 'utf8')));
  let consul: RealConsul;
  let world: TestWorld;
  beforeAll(async () => {
    // ACLs on: the state's ACL policies are taken too.
    [consul, world] = await Promise.all([startConsul(realTools().CONSUL!, { acls: true }), startWorld()]);
    await seedConsul(resources, apiCall(consul.address, 'X-Consul-Token', consul.managementToken!));
  });
  afterAll(async () => { await Promise.all([consul?.stop(), world?.stop()]); });

  test('imports every entry Consul holds; the plan after is a no-op', async () => {
    const dir = appDir();
    const env = { MESH_HTTP_ADDR: consul.address, MESH_HTTP_TOKEN: consul.managementToken!, MESH_TOKEN_HEADER: 'X-Consul-Token', CONVERGE_DIR: path.join(tempDir(), '.converge') };
    const migrated = await run(world, dir, ['migrate', 'terraform', '--state', stateFile, '--out', 'imported.ts'], env);
    expect(migrated.stderr).toBe('');
    expect(migrated.status).toBe(0);
    expect(migrated.stdout).toMatch(/Imported 24 object\(s\) into stack imported\./);
    const plan = await run(world, dir, ['plan', '--detailed-exitcode'], env);
    expect(plan.stderr).toBe('');
    expect(plan.status).toBe(0);
    const secretId = resources.find((r) => r.type === 'consul_acl_token_secret_id')!.values.secret_id;
    expectNoSecret([secretId], [dir], [migrated, plan]);
  });
});
