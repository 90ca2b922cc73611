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
    expect(migrated.stdout).toMatch(/Imported 24 object\(s\) into stack imported\./);
    const code = fs.readFileSync(path.join(dir, 'imported.ts'), 'utf8');
    expect(code).toContain("new mesh.ProxyDefaults(this, 'global', {");
    expect(code).toContain('meshGateway: {\n        mode: mesh.MeshGatewayMode.LOCAL,');
    expect(code).toMatch(/new mesh\.ServiceDefaults\(this, 'defaults-billing', \{\n {6}name: 'billing',\n {6}protocol: mesh\.MeshProtocol\.HTTP,/);
    expect(code).toContain("new mesh.ServiceRouter(this, 'payments-router', {");
    expect(code).toContain("new mesh.AclPolicy(this, 'readers', {\n      name: 'readers',\n      description: 'read the catalog',\n      rules: 'service_prefix \"\" { policy = \"read\" }',\n    });");
    expect(code).toMatch(/new mesh\.AclPolicy\(this, 'deployers', \{\n {6}name: 'deployers',\n {6}rules: 'service_prefix "" \{\\n  policy = "write"\\n\}\\n\\nkey_prefix[^\n]*,\n {6}datacenters: \[\n {8}'dc1',/);
    // The role names its policies (IDs in the state) by their constructs' names.
    expect(code).toMatch(/new mesh\.AclRole\(this, 'web_team', \{\n {6}name: 'web-team',\n {6}description: 'the web team\\'s services',\n {6}policies: \[\n {8}deployers\.policyName,\n {8}readers\.policyName,\n {6}\],\n {6}serviceIdentities: \[\n {8}\{\n {10}serviceName: 'web',/);
    expect(typeCheck(dir)).toEqual({ status: 0, output: '' });
    // Intentions, L4 and L7 (the server's ranking fields left out).
    expect(code).toMatch(/new mesh\.ServiceIntentions\(this, 'web_intentions', \{\n {6}name: 'web',\n {6}sources: \[\n {8}\{\n {10}name: 'frontend',\n {10}action: mesh\.IntentionAction\.ALLOW,/);
    expect(code).toMatch(/new mesh\.ServiceIntentions\(this, 'api_intentions', \{\n {6}name: 'api',\n {6}sources: \[\n {8}\{\n {10}name: 'web',\n {10}permissions: \[\n {12}\{\n {14}action: mesh\.IntentionAction\.ALLOW,\n {14}http: \{\n {16}pathPrefix: '\/v1\/',/);
    // The tokens, by accessor: their policies and roles by their constructs' names, and no SecretID anywhere.
    expect(code).toMatch(/new mesh\.AclToken\(this, 'ci', \{\n {6}description: 'ci',\n {6}policies: \[\n {8}readers\.policyName,\n {6}\],\n {6}roles: \[\n {8}webTeam\.roleName,\n {6}\],\n {4}\}\);/);
    expect(code).toMatch(/new mesh\.AclToken\(this, 'web_agent', \{\n {6}description: 'web agent',\n {6}serviceIdentities: \[\n {8}\{\n {10}serviceName: 'web',\n {8}\},\n {6}\],\n {6}local: true,\n {4}\}\);/);
    expect(migrated.stdout).toContain('data.consul_acl_token_secret_id.ci: a data source');
    expect(migrated.stdout).toContain('data.consul_service.web: a data source');
    expect(migrated.stdout).toContain("terraform state rm 'module.payments.consul_config_entry.router'");
    expect(migrated.stdout).toMatch(/removed \{\n {4}from = module\.payments\.consul_config_entry\.router\n/);

    const plan = await run(world, dir, ['plan', '--detailed-exitcode']);
    expect(plan.stderr).toBe('');
    expect(plan.status).toBe(0);
    const again = await run(world, dir, ['migrate', 'terraform', '--state', stateFile, '--out', 'imported.ts']);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/24 already imported, skipped/);

    // The ACL token's SecretID (read by a data source of the state, and held by the server) is nowhere.
    const secretId = resources.find((r) => r.type === 'consul_acl_token_secret_id')!.values.secret_id;
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
    expect(first.stdout).toMatch(/Imported 23 object\(s\) into stack imported; 1 failed \(above\)\./);
    await seedConsul(resources.filter((r) => r.address === missing), apiCall(world.env.MESH_HTTP_ADDR!, 'x-mesh-token', world.env.MESH_HTTP_TOKEN!));
    const again = await run(world, dir, ['migrate', 'terraform', '--state', stateFile, '--out', 'imported.ts']);
    expect(again.stderr).toBe('');
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/Imported 1 object\(s\) into stack imported; 23 already imported, skipped\./);
    const plan = await run(world, dir, ['plan', '--detailed-exitcode']);
    expect(plan.status).toBe(0);
  });
});
