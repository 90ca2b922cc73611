import * as fs from 'fs';
import * as path from 'path';
import { startWorld, TestWorld } from '../support/harness';
import { apiCall, appDir, expectNoSecret, FIXTURES, printedVariables, run, seedVault, typeCheck } from './migrate-support';

jest.setTimeout(600_000);

interface Instance { index_key?: string | number; attributes: Record<string, any> }
interface Resource { mode: string; type: string; name: string; instances: Instance[] }

// A vault provider state (terraform state pull, format 4) taken over by converge: end to end through the real
// CLI against the emulator, holding what the state says.
describe('converge migrate terraform: a vault state', () => {
  const stateFile = path.join(FIXTURES, 'vault.tfstate');
  const state = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { resources: Resource[] };
  const of = (type: string) => state.resources.filter((r) => r.mode === 'managed' && r.type === type).flatMap((r) => r.instances.map((i) => i.attributes));
  /** Every secret value of the old state: KV data, the database password, the random provider's result. */
  const secretValues = [
    ...of('vault_kv_secret_v2').flatMap((a) => Object.values(JSON.parse(a.data_json)).filter((x): x is string => typeof x === 'string')),
    ...of('vault_database_secret_backend_connection').map((a) => a.postgresql[0].password),
    ...of('random_password').map((a) => a.result),
  ];
  let world: TestWorld;

  beforeAll(async () => {
    world = await startWorld();
    await seedVault(state, apiCall(world.env.SECRETS_ADDR!, 'x-secrets-token', world.env.SECRETS_TOKEN!));
  });
  afterAll(async () => { await world?.stop(); });

  test('writes code that compiles, imports every object, plans no change with the variables set, and writes or prints no secret', async () => {
    const dir = appDir();
    const outputs = [];
    const migrated = await run(world, dir, ['migrate', 'terraform', '--state', stateFile, '--out', 'imported.ts']);
    outputs.push(migrated);
    expect(migrated.stderr).toBe('');
    expect(migrated.status).toBe(0);
    expect(migrated.stdout).toMatch(/Imported 20 object\(s\) into stack imported\./);

    // One construct per resource taken; the role refers to its connection's construct.
    const code = fs.readFileSync(path.join(dir, 'imported.ts'), 'utf8');
    expect(code.match(/new secrets\.KvSecret\(/g)).toHaveLength(18);
    expect(code).toMatch(/new secrets\.DatabaseRole\(this, 'orders_readonly', \{[^}]*connection: orders,/s);
    expect(code).toContain("password: SecretValue.fromEnv('VAULT_DATABASE_SECRET_BACKEND_CONNECTION_ORDERS_PASSWORD')");
    expect(typeCheck(dir)).toEqual({ status: 0, output: '' });

    // Each variable named with where its value is in the old state (never the value).
    const vars = printedVariables(migrated.stdout);
    expect(vars.size).toBe(26);
    expect(vars.get('VAULT_KV_SECRET_V2_ENV_PROD_FLAG_KEY')).toEqual({ address: 'vault_kv_secret_v2.env["prod"]', attribute: 'data_json.flag_key' });
    const env: Record<string, string> = {};
    for (const [name, where] of vars) {
      const r = state.resources.find((x) => where.address.startsWith(`${x.type}.${x.name}`))!;
      const inst = r.instances.find((i) => where.address === `${r.type}.${r.name}${i.index_key === undefined ? '' : `[${JSON.stringify(i.index_key)}]`}`)!;
      env[name] = where.attribute.startsWith('data_json.') ? JSON.parse(inst.attributes.data_json)[where.attribute.slice(10)] : inst.attributes.postgresql[0].password;
    }

    // Not taken, each with its reason; the way out of Terraform.
    expect(migrated.stdout).toContain('vault_mount.secret: no converge kind for vault_mount');
    expect(migrated.stdout).toContain('data.vault_policy_document.app: a data source');
    expect(migrated.stdout).toContain('random_password.spare: provider "random" is not one converge replaces');
    expect(migrated.stdout).toContain('vault_kv_secret_v2.limits: data key "per_second" holds a number');
    expect(migrated.stdout).toContain('vault_database_secret_backend_static_role.orders_report: rotation_schedule');
    expect(migrated.stdout).toContain(`terraform state rm 'vault_kv_secret_v2.env["staging"]'`);
    expect(migrated.stdout).toMatch(/removed \{\n {4}from = vault_kv_secret_v2\.tenant\n\n {4}lifecycle \{\n {6}destroy = false/);
    expect(migrated.stdout).not.toContain("terraform state rm 'vault_mount.secret'");

    const plan = await run(world, dir, ['plan', '--detailed-exitcode'], env);
    outputs.push(plan);
    expect(plan.stderr).toBe('');
    expect(plan.status).toBe(0);

    // A rerun takes nothing twice.
    const again = await run(world, dir, ['migrate', 'terraform', '--state', stateFile, '--out', 'imported.ts']);
    outputs.push(again);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/Imported 0 object\(s\) into stack imported; 20 already imported, skipped\./);
    const list = await run(world, dir, ['state', 'list', '--stack', 'imported']);
    expect(list.stdout.trim().split('\n')).toHaveLength(20);

    expectNoSecret(secretValues, [dir, world.dir], outputs);
  });
});
