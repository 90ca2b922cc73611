import * as path from 'path';
import { App, TerraformStack } from 'cdktf';
import { ConvergeTesting } from '../../lib/core/constructs/testing';
import * as mesh from '../../lib/mesh';
import { startConsul, RealConsul } from '../support/consul';
import { cliAsync, startWorld, synthApp, tempDir, TestWorld } from '../support/harness';
import { describeWithTool, realTools } from '../support/real-tools';

const { ALLOW, DENY } = mesh.IntentionAction;

/** The stack: mesh entries, its own policy (rendered from them) and its CI token holding it. */
function buildStack(st: TerraformStack, o: { billing?: boolean; webDenied?: boolean } = {}): void {
  new mesh.ServiceDefaults(st, 'api-defaults', { name: 'api', protocol: mesh.MeshProtocol.HTTP });
  new mesh.ServiceIntentions(st, 'api-intentions', { name: 'api', sources: [{ name: 'web', action: o.webDenied ? DENY : ALLOW }, { name: '*', action: DENY }] });
  if (o.billing) new mesh.ServiceDefaults(st, 'billing-defaults', { name: 'billing', protocol: mesh.MeshProtocol.GRPC });
  const policy = mesh.AclPolicy.meshPolicy(st, 'ci-policy', { name: 'prod-converge' });
  new mesh.AclToken(st, 'ci-token', { description: 'CI of prod', policies: [policy.policyName] });
}

test('meshPolicy renders, from the stack itself, the mesh policy `converge policy` prints, and follows the stack', async () => {
  const stack = new TerraformStack(new App(), 'prod');
  buildStack(stack);
  const spec = ConvergeTesting.desiredState(stack).resources['ci-policy'].spec;
  expect(spec).toMatchObject({
    name: 'prod-converge', description: 'the mesh rules stack prod needs to plan, apply and destroy (converge policy)',
    rules: 'service "api" { policy = "write" intentions = "write" }\nacl = "write"',
  });
  const dir = synthApp((st) => buildStack(st, { billing: true }), 'prod');
  const r = await cliAsync(['policy', '--synth-dir', dir, '--json'], { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' });
  expect(r.stderr).toBe('');
  const printed = JSON.parse(r.stdout).meshPolicy;
  expect(printed).toBe('service "api" { policy = "write" intentions = "write" }\nservice "billing" { policy = "write" }\nacl = "write"');
  const billing = new TerraformStack(new App(), 'prod');
  buildStack(billing, { billing: true });
  expect(ConvergeTesting.desiredState(billing).resources['ci-policy'].spec.rules).toBe(printed);
});

/** Applies the stack with an admin token, then works with the CI token alone (its secret read from the mesh by the admin). */
async function ciTokenWorks(address: string, adminToken: string): Promise<void> {
  const stateDir = tempDir('converge-meshpolicy-');
  const env = (token: string) => ({
    PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', MESH_HTTP_ADDR: address, MESH_HTTP_TOKEN: token,
    MESH_TOKEN_HEADER: 'X-Consul-Token', CONVERGE_DIR: path.join(stateDir, '.converge'), CONVERGE_STATE_KEY: process.env.CONVERGE_STATE_KEY,
  });
  const headers = { 'X-Consul-Token': adminToken };
  const v1 = synthApp((st) => buildStack(st), 'prod');
  let r = await cliAsync(['apply', '--synth-dir', v1, '--auto-approve'], env(adminToken));
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const tokens = await (await fetch(`${address}/v1/acl/tokens`, { headers })).json() as { AccessorID: string; Description: string }[];
  const accessor = tokens.find((t) => t.Description === 'CI of prod')!.AccessorID;
  // The real server answers the secret to acl:write holders; the emulator, which keeps only digests, lets the admin mint one the same way.
  const read = await (await fetch(`${address}/v1/acl/token/${accessor}`, { headers })).json() as { SecretID?: string };
  const secret = read.SecretID ?? await emulatorSecret(address, adminToken);
  r = await cliAsync(['plan', '--synth-dir', v1, '--detailed-exitcode'], env(secret));
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  // A change within the policy: the token applies it.
  const v2 = synthApp((st) => buildStack(st, { webDenied: true }), 'prod');
  r = await cliAsync(['apply', '--synth-dir', v2, '--auto-approve'], env(secret));
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect(r.stdout).toContain('traffic api: web may no longer call api (it was allowed)');
  // A change that widens it (a new service) needs the wider policy first: the preflight says so and nothing is written;
  // a token that may (the admin) applies it, and the CI token then plans it as a no-op.
  const v3 = synthApp((st) => buildStack(st, { webDenied: true, billing: true }), 'prod');
  r = await cliAsync(['apply', '--synth-dir', v3, '--auto-approve'], env(secret));
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('the mesh token lacks service "billing" { policy = "write" } (needed by prod/billing-defaults)');
  expect((await fetch(`${address}/v1/config/service-defaults/billing`, { headers })).status).toBe(404);
  r = await cliAsync(['apply', '--synth-dir', v3, '--auto-approve'], env(adminToken));
  expect(r.status).toBe(0);
  r = await cliAsync(['plan', '--synth-dir', v3, '--detailed-exitcode'], env(secret));
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
}

/** A token holding the stack's policy, minted through the emulator's admin interface (it keeps no secrets to read back). */
async function emulatorSecret(address: string, adminToken: string): Promise<string> {
  const r = await fetch(`${address}/__admin/tokens`, { method: 'POST', headers: { 'X-Mesh-Token': adminToken }, body: JSON.stringify({ policies: ['prod-converge'] }) });
  return (await r.json() as { secretId: string }).secretId;
}

describe('meshPolicy against the emulator', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  test('the stack applies its own policy and CI token; a token holding that policy alone plans the stack as a no-op and applies changes within it', async () => {
    await ciTokenWorks(world.env.MESH_HTTP_ADDR!, world.env.MESH_HTTP_TOKEN!);
  });
});

describeWithTool('CONSUL', 'meshPolicy against a real Consul 1.16 with ACLs', () => {
  let consul: RealConsul;
  beforeAll(async () => { consul = await startConsul(realTools().CONSUL!, { acls: true }); });
  afterAll(async () => { await consul?.stop(); });

  test('the stack applies its own policy and CI token; that token alone then plans the stack as a no-op and applies changes within it', async () => {
    await ciTokenWorks(consul.address, consul.managementToken!);
  });
});
