import * as fs from 'fs';
import * as path from 'path';
import { startWorld, TestWorld } from '../support/harness';
import { apiCall, appDir, expectNoSecret, FIXTURES, run, seedConsul, showResources, typeCheck } from './migrate-support';

jest.setTimeout(600_000);

// A consul provider state as `terraform show -json` prints it (a root module and a child module), taken over
// by converge: end to end through the real CLI against the emulator.
describe('converge migrate terraform: a consul state (terraform show -json)', () => {
  const stateFile = path.join(FIXTURES, 'consul.show.json');
  const resources = showResources(JSON.parse(fs.readFileSync(stateFile, 'utf8')));
  let world: TestWorld;

  beforeAll(async () => {
    world = await startWorld();
    await seedConsul(resources, apiCall(world.env.MESH_HTTP_ADDR!, 'x-mesh-token', world.env.MESH_HTTP_TOKEN!));
  });
  afterAll(async () => { await world?.stop(); });

  test('every entry of a known kind becomes its construct, is imported, and plans no change; the rest is listed with its reason', async () => {
    expect(resources.length).toBeGreaterThanOrEqual(20);
    const dir = appDir();
    const migrated = await run(world, dir, ['migrate', 'terraform', '--state', stateFile, '--out', 'imported.ts']);
    expect(migrated.stderr).toBe('');
    expect(migrated.status).toBe(0);
    expect(migrated.stdout).toMatch(/Imported 17 object\(s\) into stack imported\./);
    const code = fs.readFileSync(path.join(dir, 'imported.ts'), 'utf8');
    expect(code).toContain("new mesh.ProxyDefaults(this, 'global', {");
    expect(code).toContain('meshGateway: {\n        mode: mesh.MeshGatewayMode.LOCAL,');
    expect(code).toMatch(/new mesh\.ServiceDefaults\(this, 'defaults-billing', \{\n {6}name: 'billing',\n {6}protocol: mesh\.MeshProtocol\.HTTP,/);
    expect(code).toContain("new mesh.ServiceRouter(this, 'payments-router', {");
    expect(typeCheck(dir)).toEqual({ status: 0, output: '' });
    expect(migrated.stdout).toContain('consul_config_entry.web_intentions: config entry kind "service-intentions" has no converge construct');
    expect(migrated.stdout).toContain('consul_acl_token.ci: no converge kind for consul_acl_token');
    expect(migrated.stdout).toContain('data.consul_service.web: a data source');
    expect(migrated.stdout).toContain("terraform state rm 'module.payments.consul_config_entry.router'");
    expect(migrated.stdout).toMatch(/removed \{\n {4}from = module\.payments\.consul_config_entry\.router\n/);

    const plan = await run(world, dir, ['plan', '--detailed-exitcode']);
    expect(plan.stderr).toBe('');
    expect(plan.status).toBe(0);
    const again = await run(world, dir, ['migrate', 'terraform', '--state', stateFile, '--out', 'imported.ts']);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/17 already imported, skipped/);

    // The ACL token's SecretID (sensitive in the state, of a resource not taken) is nowhere.
    const secretId = resources.find((r) => r.type === 'consul_acl_token')!.values.secret_id;
    expectNoSecret([secretId], [dir, world.dir], [migrated, plan, again]);
  });
});

describe('converge migrate terraform: an object the state holds but the server does not', () => {
  const stateFile = path.join(FIXTURES, 'consul.show.json');
  const resources = showResources(JSON.parse(fs.readFileSync(stateFile, 'utf8')));
  const missing = 'module.payments.consul_config_entry.defaults_grpc';
  let world: TestWorld;
  beforeAll(async () => {
    world = await startWorld();
    await seedConsul(resources.filter((r) => r.address !== missing), apiCall(world.env.MESH_HTTP_ADDR!, 'x-mesh-token', world.env.MESH_HTTP_TOKEN!));
  });
  afterAll(async () => { await world?.stop(); });

  test('is reported and the run fails, the others imported; once it exists, a rerun imports only it', async () => {
    const dir = appDir();
    const first = await run(world, dir, ['migrate', 'terraform', '--state', stateFile, '--out', 'imported.ts']);
    expect(first.status).toBe(1);
    expect(first.stderr).toContain(`${missing}: not imported: imported/payments-defaults_grpc: no mesh.ServiceDefaults with id "service-defaults/payments-grpc" exists`);
    expect(first.stdout).toMatch(/Imported 16 object\(s\) into stack imported; 1 failed \(above\)\./);
    await seedConsul(resources.filter((r) => r.address === missing), apiCall(world.env.MESH_HTTP_ADDR!, 'x-mesh-token', world.env.MESH_HTTP_TOKEN!));
    const again = await run(world, dir, ['migrate', 'terraform', '--state', stateFile, '--out', 'imported.ts']);
    expect(again.stderr).toBe('');
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/Imported 1 object\(s\) into stack imported; 16 already imported, skipped\./);
    const plan = await run(world, dir, ['plan', '--detailed-exitcode']);
    expect(plan.status).toBe(0);
  });
});
