import * as path from 'path';
import { App, TerraformStack } from 'cdktf';
import { ConvergeTesting } from '../../../lib/core/constructs/testing';
import * as mesh from '../../../lib/mesh';
import { startConsul, RealConsul } from '../../support/consul';
import { cliAsync, startWorld, synthApp, tempDir, TestWorld } from '../../support/harness';
import { describeWithTool, realTools } from '../../support/real-tools';

test('AclRole: refused names and identities name the construct and field; a policy of the stack it names is ordered first', () => {
  const bad = new TerraformStack(new App(), 'prod');
  expect(() => new mesh.AclRole(bad, 'r', { name: 'a/b' })).toThrow(/prod\/r: name "a\/b" may hold only letters, digits, '-' and '_'/);
  expect(() => new mesh.AclRole(bad, 's', { name: 's', serviceIdentities: [{ serviceName: 'We b' }] })).toThrow(/prod\/s: serviceIdentities\[0\]\.serviceName/);
  const stack = new TerraformStack(new App(), 'prod');
  const policy = new mesh.AclPolicy(stack, 'p', { name: 'web-write' });
  const role = new mesh.AclRole(stack, 'ok', { name: 'web-team', policies: [policy.policyName, 'builtin/global-read-only'] });
  expect(ConvergeTesting.desiredState(stack).resources.ok.spec.policies).toEqual(['builtin/global-read-only', 'web-write']);
  expect(role.node.dependencies).toContain(policy);
});

type Target = { address: string; token: string; env: NodeJS.ProcessEnv };

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
  const shape = (r: { Name: string; Description: string; Policies?: { Name: string }[]; ServiceIdentities?: unknown; NodeIdentities?: unknown }) => ({
    Name: r.Name, Description: r.Description, Policies: (r.Policies ?? []).map((p) => p.Name).sort(), ServiceIdentities: r.ServiceIdentities, NodeIdentities: r.NodeIdentities,
  });
  // The role is declared before its policy: the ordering comes from the names.
  // A second role (until the import) makes the plan read both from one list: every compared field must come back in it.
  const build = (o: { extra?: boolean; pair?: boolean }) => synthApp((st: TerraformStack) => {
    if (o.pair) {
      new mesh.AclRole(st, 'api-team', {
        name: 'api-team', description: 'the api team', policies: ['web-write'],
        serviceIdentities: [{ serviceName: 'api', datacenters: ['dc1'] }], nodeIdentities: [{ nodeName: 'node-2', datacenter: 'dc1' }],
      });
    }
    new mesh.AclRole(st, 'web-team', {
      name: 'web-team', policies: o.extra ? ['web-write', 'ops'] : ['web-write'],
      serviceIdentities: [{ serviceName: 'web', datacenters: o.extra ? ['dc1'] : undefined }],
      nodeIdentities: o.extra ? [{ nodeName: 'node-1', datacenter: 'dc1' }] : undefined,
    });
    new mesh.AclPolicy(st, 'web-write', { name: 'web-write', rules: 'service "web" { policy = "write" }' });
    if (o.extra) new mesh.AclPolicy(st, 'ops', { name: 'ops', rules: 'operator = "read"' });
  });
  const v1 = build({ pair: true });
  const v2 = build({ extra: true, pair: true });
  const vImport = build({});
  const steps: Record<string, unknown> = {};
  steps.plan = await run(['plan', '--synth-dir', v1, '--detailed-exitcode']);
  steps.apply = await run(['apply', '--synth-dir', v1, '--auto-approve']);
  const created = await api('GET', '/v1/acl/role/name/web-team');
  steps.created = shape(created.body);
  steps.noop = await run(['plan', '--synth-dir', v1, '--detailed-exitcode']);
  steps.update = await run(['apply', '--synth-dir', v2, '--auto-approve']);
  const updated = await api('GET', `/v1/acl/role/${created.body.ID}`);
  steps.updated = shape(updated.body);
  steps.sameId = updated.body.ID === created.body.ID;
  steps.noop2 = await run(['plan', '--synth-dir', v2, '--detailed-exitcode']);
  steps.driftWrite = (await api('PUT', `/v1/acl/role/${created.body.ID}`, { Name: 'web-team' })).status;
  steps.drift = await run(['plan', '--synth-dir', v2, '--detailed-exitcode']);
  steps.repair = await run(['apply', '--synth-dir', v2, '--auto-approve']);
  steps.repaired = shape((await api('GET', `/v1/acl/role/${created.body.ID}`)).body);
  steps.destroy = await run(['destroy', '--synth-dir', v2, '--auto-approve']);
  steps.gone = (await api('GET', `/v1/acl/role/${created.body.ID}`)).status;
  // Import by name.
  const policy = await api('PUT', '/v1/acl/policy', { Name: 'web-write', Rules: 'service "web" { policy = "write" }' });
  await api('PUT', '/v1/acl/role', { Name: 'web-team', Policies: [{ ID: policy.body.ID }], ServiceIdentities: [{ ServiceName: 'web' }] });
  steps.importPolicy = (await run(['import', 'web-write', 'web-write', '--synth-dir', vImport])).status;
  steps.importRole = (await run(['import', 'web-team', 'web-team', '--synth-dir', vImport])).status;
  steps.afterImport = await run(['plan', '--synth-dir', vImport, '--detailed-exitcode']);
  steps.finalDestroy = (await run(['destroy', '--synth-dir', vImport, '--auto-approve'])).status;
  steps.left = (await api('GET', '/v1/acl/roles')).body;
  return steps;
}

const expected = {
  plan: { status: 2, err: '' }, apply: { status: 0, err: '' },
  created: { Name: 'web-team', Description: '', Policies: ['web-write'], ServiceIdentities: [{ ServiceName: 'web' }] },
  noop: { status: 0 }, update: { status: 0, err: '' },
  updated: {
    Name: 'web-team', Description: '', Policies: ['ops', 'web-write'], ServiceIdentities: [{ ServiceName: 'web', Datacenters: ['dc1'] }],
    NodeIdentities: [{ NodeName: 'node-1', Datacenter: 'dc1' }],
  },
  sameId: true, noop2: { status: 0 }, driftWrite: 200, drift: { status: 2 }, repair: { status: 0 },
  destroy: { status: 0 }, gone: 404, importPolicy: 0, importRole: 0, afterImport: { status: 0 }, finalDestroy: 0, left: [],
};

describe('AclRole through the CLI against the emulator', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  test('plan, apply (policies first), no-op, update in place, drift, destroy, import', async () => {
    const steps = await lifecycle({ address: world.env.MESH_HTTP_ADDR!, token: world.env.MESH_HTTP_TOKEN!, env: world.env });
    expect(steps).toMatchObject(expected);
    expect(steps.repaired).toEqual(steps.updated);
  });
});

describeWithTool('CONSUL', 'AclRole against a real Consul 1.16 with ACLs, and the emulator in its 1.16 shape', () => {
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
    for (const step of Object.keys(real)) expect({ step, v: emu[step] }).toEqual({ step, v: real[step] });
  });
});
