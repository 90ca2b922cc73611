import * as path from 'path';
import { App, TerraformStack } from 'cdktf';
import * as mesh from '../../../lib/mesh';
import { startConsul, RealConsul } from '../../support/consul';
import { cliAsync, startWorld, synthApp, tempDir, TestWorld } from '../../support/harness';
import { describeWithTool, realTools } from '../../support/real-tools';

test('AclPolicy: a name the mesh refuses is refused at synth, naming the construct and field', () => {
  const stack = new TerraformStack(new App(), 'prod');
  expect(() => new mesh.AclPolicy(stack, 'p', { name: 'bad name!' })).toThrow(/prod\/p: name "bad name!" may hold only letters, digits/);
  expect(() => new mesh.AclPolicy(stack, 'q', { name: 'team/web-write' })).not.toThrow();
});

type Target = { address: string; token: string; env: NodeJS.ProcessEnv };

/** The life of one policy through the real CLI: each step's outcome, without what differs by server (ids, indexes). */
async function lifecycle(t: Target) {
  const api = async (method: string, p: string, body?: unknown) => {
    const r = await fetch(`${t.address}${p}`, { method, headers: { 'X-Consul-Token': t.token }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, body: r.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text.trim() };
  };
  const norm = (s: string) => s.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
    .replace(/https?:\/\/127\.0\.0\.1:\d+/g, 'ADDR').replace(/\b\d+(\.\d+)?\s?(ms|s)\b/g, 'T').replace(/(modifyIndex|ModifyIndex)(["\s:=]*)\d+/g, '$1$2N');
  const run = async (args: string[]) => {
    const r = await cliAsync(args, t.env);
    const ordered = (x: string) => (['apply', 'destroy'].includes(args[0]) ? x.replace(/\[\d+\/\d+\] /g, '').split('\n').sort().join('\n') : x);
    return { status: r.status, out: ordered(norm(r.stdout)), err: ordered(norm(r.stderr)) };
  };
  const fields = (p: { Name: string; Description: string; Rules: string; Datacenters?: string[] }) => ({ Name: p.Name, Description: p.Description, Rules: p.Rules, Datacenters: p.Datacenters });
  const build = (o: { name: string; rules: string; description?: string }) => synthApp((st: TerraformStack) => {
    new mesh.AclPolicy(st, 'web-write', { name: o.name, rules: o.rules, description: o.description });
  });
  const v1 = build({ name: 'web-write', rules: 'service "web" { policy = "write" }' });
  const v2 = build({ name: 'web-writers', rules: 'service "web" { policy = "write" }\nmesh = "write"', description: 'the web team' });
  const steps: Record<string, unknown> = {};
  steps.plan = await run(['plan', '--synth-dir', v1, '--detailed-exitcode']);
  steps.apply = await run(['apply', '--synth-dir', v1, '--auto-approve']);
  const created = await api('GET', '/v1/acl/policy/name/web-write');
  steps.created = fields(created.body);
  steps.noop = await run(['plan', '--synth-dir', v1, '--detailed-exitcode']);
  // A rename and new rules: in place, the same ID.
  steps.update = await run(['apply', '--synth-dir', v2, '--auto-approve']);
  const updated = await api('GET', `/v1/acl/policy/${created.body.ID}`);
  steps.updated = fields(updated.body);
  steps.sameId = updated.body.ID === created.body.ID;
  // Drift: the rules changed outside converge, then put back.
  steps.driftWrite = (await api('PUT', `/v1/acl/policy/${created.body.ID}`, { Name: 'web-writers', Rules: 'service "web" { policy = "read" }' })).status;
  steps.drift = await run(['plan', '--synth-dir', v2, '--detailed-exitcode']);
  steps.repair = await run(['apply', '--synth-dir', v2, '--auto-approve']);
  steps.repaired = fields((await api('GET', `/v1/acl/policy/${created.body.ID}`)).body);
  steps.destroy = await run(['destroy', '--synth-dir', v2, '--auto-approve']);
  steps.gone = (await api('GET', `/v1/acl/policy/${created.body.ID}`)).status;
  // Import a policy made outside converge, by name and by ID.
  const outside = await api('PUT', '/v1/acl/policy', { Name: 'web-write', Rules: 'service "web" { policy = "write" }' });
  steps.conflict = await run(['plan', '--synth-dir', v1, '--detailed-exitcode']);
  steps.import = await run(['import', 'web-write', outside.body.ID, '--synth-dir', v1]);
  steps.afterImport = await run(['plan', '--synth-dir', v1, '--detailed-exitcode']);
  steps.finalDestroy = (await run(['destroy', '--synth-dir', v1, '--auto-approve'])).status;
  steps.left = (await api('GET', '/v1/acl/policies')).body.map((p: { Name: string }) => p.Name).sort();
  return steps;
}

const expected = {
  plan: { status: 2, err: '' }, apply: { status: 0, err: '' },
  created: { Name: 'web-write', Description: '', Rules: 'service "web" { policy = "write" }' },
  noop: { status: 0 }, update: { status: 0, err: '' },
  updated: { Name: 'web-writers', Description: 'the web team', Rules: 'service "web" { policy = "write" }\nmesh = "write"' },
  sameId: true, driftWrite: 200, drift: { status: 2 }, repair: { status: 0 },
  repaired: { Name: 'web-writers', Description: 'the web team', Rules: 'service "web" { policy = "write" }\nmesh = "write"' },
  destroy: { status: 0 }, gone: 404, import: { status: 0 }, afterImport: { status: 0 }, finalDestroy: 0,
};

describe('AclPolicy through the CLI against the emulator', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  test('plan, apply, no-op, rename in place, drift, destroy, conflict and import', async () => {
    const steps = await lifecycle({ address: world.env.MESH_HTTP_ADDR!, token: world.env.MESH_HTTP_TOKEN!, env: world.env });
    expect(steps).toMatchObject(expected);
    expect((steps.plan as { out: string }).out).toMatch(/web-write \(mesh\.AclPolicy\) will be created/);
    // The ID is the server's: a policy of the same name made outside converge is no conflict the plan can see (the create would be refused).
    expect((steps.conflict as { out: string }).out).toMatch(/web-write \(mesh\.AclPolicy\) will be created/);
    expect(steps.left).toEqual(['global-management']);
  });
});

describeWithTool('CONSUL', 'AclPolicy against a real Consul 1.16 with ACLs, and the emulator in its 1.16 shape', () => {
  let consul: RealConsul;
  let world: TestWorld;
  beforeAll(async () => {
    [consul, world] = await Promise.all([startConsul(realTools().CONSUL!, { acls: true }), startWorld({ meshShape: 'consul-1.16' })]);
  });
  afterAll(async () => { await Promise.all([consul?.stop(), world?.stop()]); });

  const target = (address: string, token: string): Target => ({
    address, token,
    env: { ...world.env, MESH_HTTP_ADDR: address, MESH_HTTP_TOKEN: token, MESH_TOKEN_HEADER: 'X-Consul-Token', CONVERGE_DIR: path.join(tempDir('converge-acl-'), '.converge') },
  });

  test('the same steps, the same outcomes', async () => {
    const real = await lifecycle(target(consul.address, consul.managementToken!));
    const emu = await lifecycle(target(world.env.MESH_HTTP_ADDR!, world.env.MESH_HTTP_TOKEN!));
    expect(real).toMatchObject(expected);
    // The real server has its built-in read-only policy too.
    expect(real.left).toEqual(['builtin/global-read-only', 'global-management']);
    delete real.left;
    delete emu.left;
    for (const step of Object.keys(real)) expect({ step, v: emu[step] }).toEqual({ step, v: real[step] });
  });
});
