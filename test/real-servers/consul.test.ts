import * as fs from 'fs';
import * as path from 'path';
import { TerraformStack } from 'cdktf';
import * as mesh from '../../lib/mesh';
import { startConsul, RealConsul } from '../support/consul';
import { cliAsync, startWorld, synthApp, tempDir, TestWorld } from '../support/harness';
import { describeWithTool, realTools } from '../support/real-tools';

/**
 * The same stack, through the real CLI, against a real Consul 1.16 (reached directly with
 * MESH_TOKEN_HEADER=X-Consul-Token) and against the emulator answering as Consul 1.16: the same
 * plans and outcomes at every step. One Consul per role, started once for the file.
 */
describeWithTool('CONSUL', 'converge against a real Consul 1.16 and the emulator in its 1.16 shape', () => {
  let consul: RealConsul;
  let aclConsul: RealConsul;
  let world: TestWorld;

  beforeAll(async () => {
    [consul, aclConsul, world] = await Promise.all([
      startConsul(realTools().CONSUL!),
      startConsul(realTools().CONSUL!, { acls: true }),
      startWorld({ meshShape: 'consul-1.16' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([consul?.stop(), aclConsul?.stop(), world?.stop()]);
  });

  /** Each target: its address, a token, and a state directory of its own. */
  type Target = { name: string; address: string; token: string; env: NodeJS.ProcessEnv };
  const target = (name: string, address: string, token: string): Target => ({
    name, address, token,
    env: {
      ...world.env, MESH_HTTP_ADDR: address, MESH_HTTP_TOKEN: token, MESH_TOKEN_HEADER: 'X-Consul-Token',
      CONVERGE_DIR: path.join(tempDir('converge-consul-'), '.converge'),
    },
  });

  const api = async (t: Target, method: string, p: string, body?: unknown) => {
    const r = await fetch(`${t.address}${p}`, {
      method, headers: { 'X-Consul-Token': t.token }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, text, body: r.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
  };

  const build = (o: { weights: [number, number]; timeout: string; withBilling?: boolean }) => synthApp((st: TerraformStack) => {
    new mesh.ProxyDefaults(st, 'proxy', { meshGateway: { mode: mesh.MeshGatewayMode.LOCAL } });
    new mesh.ServiceDefaults(st, 'web-defaults', { name: 'web', protocol: mesh.MeshProtocol.HTTP });
    new mesh.ServiceDefaults(st, 'admin-defaults', { name: 'admin', protocol: mesh.MeshProtocol.HTTP });
    new mesh.ServiceResolver(st, 'web-resolver', {
      name: 'web', connectTimeout: o.timeout,
      subsets: { v1: { filter: 'Service.Meta.version == v1' }, v2: { filter: 'Service.Meta.version == v2' } },
    });
    new mesh.ServiceSplitter(st, 'web-split', { name: 'web', splits: [{ weight: o.weights[0], serviceSubset: 'v1' }, { weight: o.weights[1], serviceSubset: 'v2' }] });
    new mesh.ServiceRouter(st, 'web-router', { name: 'web', routes: [{ match: { http: { pathPrefix: '/admin' } }, destination: { service: 'admin', requestTimeout: '30s' } }] });
    if (o.withBilling) new mesh.ServiceDefaults(st, 'billing-defaults', { name: 'billing', protocol: mesh.MeshProtocol.GRPC });
    new mesh.DiscoveryChain(st, 'web-chain', { service: 'web' });
  });

  /** What a run shows, without what differs by server and by run (addresses, indexes, timings). */
  const norm = (s: string) => s
    .replace(/https?:\/\/127\.0\.0\.1:\d+/g, 'ADDR')
    .replace(/(modifyIndex|createIndex|ModifyIndex|CreateIndex)(["\s:=]*)\d+/g, '$1$2N')
    .replace(/\b\d+(\.\d+)?\s?(ms|s)\b/g, 'T')
    .replace(/index \d+/gi, 'index N')
    .replace(/ModifyIndex \d+/g, 'ModifyIndex N');
  const run = async (t: Target, args: string[]) => {
    const r = await cliAsync(args, t.env);
    // Operations run in parallel: their progress lines come in the order they finish.
    const ordered = (x: string) => (['apply', 'destroy'].includes(args[0]) ? x.replace(/\[\d+\/\d+\] /g, '').split('\n').sort().join('\n') : x);
    return { status: r.status, out: ordered(norm(r.stdout)), err: ordered(norm(r.stderr)) };
  };

  /** The whole life of the stack against one target: each step's exit status and output. */
  const lifecycle = async (t: Target) => {
    const v1 = build({ weights: [66.667, 33.333], timeout: '15s' });
    const v2 = build({ weights: [50, 50], timeout: '1m' });
    const v3 = build({ weights: [50, 50], timeout: '1m', withBilling: true });
    const steps: Record<string, unknown> = {};
    steps.plan = await run(t, ['plan', '--synth-dir', v1, '--detailed-exitcode']);
    steps.apply = await run(t, ['apply', '--synth-dir', v1, '--auto-approve']);
    // 66.667 is stored as 66.67: no drift forever.
    steps.noop = await run(t, ['plan', '--synth-dir', v1, '--detailed-exitcode']);
    steps.update = await run(t, ['plan', '--synth-dir', v2, '--detailed-exitcode']);
    steps.applyUpdate = await run(t, ['apply', '--synth-dir', v2, '--auto-approve']);
    // Drift made outside converge: the split is changed behind its back.
    const written = await api(t, 'PUT', '/v1/config', { Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: 80, ServiceSubset: 'v1' }, { Weight: 20, ServiceSubset: 'v2' }] });
    steps.driftWrite = written.body;
    steps.drift = await run(t, ['plan', '--synth-dir', v2, '--detailed-exitcode']);
    steps.refresh = await run(t, ['refresh', '--synth-dir', v2]);
    steps.repair = await run(t, ['apply', '--synth-dir', v2, '--auto-approve']);
    steps.splitAfterRepair = (await api(t, 'GET', '/v1/config/service-splitter/web')).body.Splits;
    // Import: an entry made outside converge, taken under management.
    steps.billingWrite = (await api(t, 'PUT', '/v1/config', { Kind: 'service-defaults', Name: 'billing', Protocol: 'grpc' })).body;
    steps.conflict = await run(t, ['plan', '--synth-dir', v3, '--detailed-exitcode']);
    steps.import = await run(t, ['import', 'billing-defaults', 'service-defaults/billing', '--synth-dir', v3]);
    steps.afterImport = await run(t, ['plan', '--synth-dir', v3, '--detailed-exitcode']);
    steps.destroy = await run(t, ['destroy', '--synth-dir', v3, '--auto-approve']);
    steps.left = (await api(t, 'GET', '/v1/config/service-defaults')).body;
    return steps;
  };

  test('plan, apply, no-op plan, update, drift, refresh, import, destroy: the same against both', async () => {
    const emu = await lifecycle(target('emulator', world.env.MESH_HTTP_ADDR!, world.env.MESH_HTTP_TOKEN!));
    const real = await lifecycle(target('consul', consul.address, 'anonymous'));
    // Against the real server first, so that a failure says what the real server did.
    expect(real).toMatchObject({
      plan: { status: 2, err: '' }, apply: { status: 0, err: '' }, noop: { status: 0 }, update: { status: 2 },
      applyUpdate: { status: 0 }, drift: { status: 2 }, repair: { status: 0 }, afterImport: { status: 0 }, destroy: { status: 0 }, left: [],
    });
    expect((real.plan as { out: string }).out).toContain('traffic web: split web.default.default added: v1.web.default.default.dc1 66.67%, v2.web.default.default.dc1 33.33%');
    expect(real.splitAfterRepair).toEqual([{ Weight: 50, ServiceSubset: 'v1' }, { Weight: 50, ServiceSubset: 'v2' }]);
    for (const step of Object.keys(real)) expect({ step, ...(emu[step] as object) }).toEqual({ step, ...(real[step] as object) });
  });

  test('least privilege: a Consul token holding only the policy `converge policy` prints plans, applies and destroys, with the same plan', async () => {
    const v1 = build({ weights: [90, 10], timeout: '5s' });
    const admin = target('consul-acl', aclConsul.address, aclConsul.managementToken!);
    const pol = await cliAsync(['policy', '--synth-dir', v1, '--json'], admin.env);
    expect(pol.status).toBe(0);
    const rules = JSON.parse(pol.stdout).stacks?.[0]?.meshPolicy ?? JSON.parse(pol.stdout).meshPolicy;
    expect(rules).toBe([
      'service "admin" { policy = "write" }', 'service "web" { policy = "write" }', 'mesh = "write"',
    ].join('\n'));
    expect((await api(admin, 'PUT', '/v1/acl/policy', { Name: 'converge-stack', Rules: rules })).status).toBe(200);
    const token = await api(admin, 'PUT', '/v1/acl/token', { Description: 'converge', Policies: [{ Name: 'converge-stack' }] });
    expect(token.status).toBe(200);
    const limited = { ...admin, token: token.body.SecretID as string, env: { ...admin.env, MESH_HTTP_TOKEN: token.body.SecretID as string } };
    const withAdmin = await run(admin, ['plan', '--synth-dir', v1, '--detailed-exitcode']);
    const plan = await run(limited, ['plan', '--synth-dir', v1, '--detailed-exitcode']);
    // The preflight cannot read the token's policy (that needs acl = "read", which the printed rules do not grant): it says so, and goes on.
    const couldNotCheck = /^Preflight of stack e2e: could not check what the token may do on the mesh API \(MESH_HTTP_ADDR\): its policy "converge-stack" answered 403 [^\n]*\n?$/;
    expect(plan.err).toMatch(couldNotCheck);
    expect({ ...plan, err: '' }).toEqual(withAdmin);
    expect(plan.status).toBe(2);
    // Something the token may not see: the lists it reads are filtered (and say so), never read as deleted.
    expect((await api(admin, 'PUT', '/v1/config', { Kind: 'service-defaults', Name: 'secret-service', Protocol: 'http' })).body).toBe(true);
    const listed = await fetch(`${aclConsul.address}/v1/config/service-defaults`, { headers: { 'X-Consul-Token': limited.token } });
    expect(listed.headers.get('x-consul-results-filtered-by-acls')).toBe('true');
    const apply = await run(limited, ['apply', '--synth-dir', v1, '--auto-approve']);
    expect(apply.status).toBe(0);
    expect(apply.err.trim()).toMatch(couldNotCheck);
    expect(await run(limited, ['plan', '--synth-dir', v1, '--detailed-exitcode'])).toMatchObject({ status: 0, err: '' });
    expect(await run(limited, ['destroy', '--synth-dir', v1, '--auto-approve', '--no-preflight'])).toMatchObject({ status: 0, err: '' });
    expect((await api(admin, 'GET', '/v1/config/service-defaults')).body.map((e: { Name: string }) => e.Name)).toEqual(['secret-service']);
    // Without the header setting, the real server never sees the token: the error says which variable to set.
    const noHeader = await run({ ...limited, env: { ...limited.env, MESH_TOKEN_HEADER: '' } }, ['plan', '--synth-dir', v1]);
    expect(noHeader.status).toBe(1);
    fs.rmSync(v1, { recursive: true, force: true });
  });
});
