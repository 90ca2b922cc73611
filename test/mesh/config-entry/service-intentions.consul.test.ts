import * as path from 'path';
import { TerraformStack } from 'cdktf';
import * as mesh from '../../../lib/mesh';
import { startConsul, RealConsul } from '../../support/consul';
import { cliAsync, startWorld, synthApp, tempDir, TestWorld } from '../../support/harness';
import { describeWithTool, realTools } from '../../support/real-tools';

/**
 * mesh.ServiceIntentions through the real CLI against a real Consul 1.16 with ACLs enforced (its
 * management token) and against the emulator in its 1.16 shape: the same steps, the same outcomes.
 */
describeWithTool('CONSUL', 'ServiceIntentions against a real Consul 1.16 (ACLs on) and the emulator in its 1.16 shape', () => {
  let consul: RealConsul;
  let world: TestWorld;
  beforeAll(async () => {
    [consul, world] = await Promise.all([startConsul(realTools().CONSUL!, { acls: true }), startWorld({ meshShape: 'consul-1.16' })]);
  });
  afterAll(async () => { await Promise.all([consul?.stop(), world?.stop()]); });

  type Target = { address: string; token: string; env: NodeJS.ProcessEnv };
  const target = (address: string, token: string): Target => ({
    address, token,
    env: { ...world.env, MESH_HTTP_ADDR: address, MESH_HTTP_TOKEN: token, MESH_TOKEN_HEADER: 'X-Consul-Token', CONVERGE_DIR: path.join(tempDir('converge-consul-'), '.converge') },
  });
  const api = async (t: Target, method: string, p: string, body?: unknown) => {
    const r = await fetch(`${t.address}${p}`, { method, headers: { 'X-Consul-Token': t.token }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, body: r.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
  };
  const norm = (s: string) => s.replace(/https?:\/\/127\.0\.0\.1:\d+/g, 'ADDR').replace(/\b\d+(\.\d+)?\s?(ms|s)\b/g, 'T')
    .replace(/(modifyIndex|createIndex|ModifyIndex|CreateIndex)(["\s:=]*)\d+/g, '$1$2N').replace(/index \d+/gi, 'index N');
  const run = async (t: Target, args: string[]) => {
    const r = await cliAsync(args, t.env);
    const ordered = (x: string) => (['apply', 'destroy'].includes(args[0]) ? x.replace(/\[\d+\/\d+\] /g, '').split('\n').sort().join('\n') : x);
    return { status: r.status, out: ordered(norm(r.stdout)), err: ordered(norm(r.stderr)) };
  };

  const { ALLOW, DENY } = mesh.IntentionAction;
  const build = (sources: mesh.IntentionSource[], apiProtocol = mesh.MeshProtocol.HTTP) => synthApp((st: TerraformStack) => {
    new mesh.ServiceIntentions(st, 'api-intentions', { name: 'api', sources });
    new mesh.ServiceDefaults(st, 'api-defaults', { name: 'api', protocol: apiProtocol });
  });

  const lifecycle = async (t: Target) => {
    const v1 = build([{ name: '*', action: DENY }, { name: 'web', action: ALLOW }]);
    const v2 = build([
      { name: 'web', permissions: [{ action: ALLOW, http: { pathPrefix: '/v1', methods: ['GET', 'POST'], header: [{ name: 'x-team', exact: 'web', invert: true }] } }, { action: DENY, http: { pathRegex: '/admin/.*' } }] },
      { name: '*', action: DENY },
    ]);
    const tcp = build([{ name: 'web', permissions: [{ action: ALLOW, http: { pathExact: '/q' } }] }], mesh.MeshProtocol.TCP);
    const steps: Record<string, unknown> = {};
    steps.plan = await run(t, ['plan', '--synth-dir', v1, '--detailed-exitcode']);
    steps.apply = await run(t, ['apply', '--synth-dir', v1, '--auto-approve']);
    steps.stored = (await api(t, 'GET', '/v1/config/service-intentions/api')).body.Sources;
    steps.noop = await run(t, ['plan', '--synth-dir', v1, '--detailed-exitcode']);
    steps.applyL7 = await run(t, ['apply', '--synth-dir', v2, '--auto-approve']);
    steps.storedL7 = (await api(t, 'GET', '/v1/config/service-intentions/api')).body.Sources;
    steps.noopL7 = await run(t, ['plan', '--synth-dir', v2, '--detailed-exitcode']);
    // The destination's protocol cannot go to tcp under L7 permissions: refused by the server, nothing changed.
    steps.toTcp = await run(t, ['apply', '--synth-dir', tcp, '--auto-approve']);
    steps.protocolAfter = (await api(t, 'GET', '/v1/config/service-defaults/api')).body.Protocol;
    // Drift written outside converge.
    steps.driftWrite = (await api(t, 'PUT', '/v1/config', { Kind: 'service-intentions', Name: 'api', Sources: [{ Name: 'web', Action: 'deny' }] })).body;
    steps.drift = await run(t, ['plan', '--synth-dir', v2, '--detailed-exitcode']);
    steps.repair = await run(t, ['apply', '--synth-dir', v2, '--auto-approve']);
    steps.repaired = (await api(t, 'GET', '/v1/config/service-intentions/api')).body.Sources;
    steps.destroy = await run(t, ['destroy', '--synth-dir', v2, '--auto-approve']);
    steps.left = (await api(t, 'GET', '/v1/config/service-intentions')).body;
    // Import an entry made outside converge.
    steps.importWrite = (await api(t, 'PUT', '/v1/config', { Kind: 'service-intentions', Name: 'api', Sources: [{ Name: 'web', Action: 'allow' }, { Name: '*', Action: 'deny' }] })).body;
    steps.import = await run(t, ['import', 'api-intentions', 'service-intentions/api', '--synth-dir', v1]);
    steps.afterImport = (await run(t, ['plan', '--synth-dir', v1, '--detailed-exitcode'])).out.split('\n').filter((l) => /api-intentions/.test(l));
    steps.finalDestroy = (await run(t, ['destroy', '--synth-dir', v1, '--auto-approve'])).status;
    return steps;
  };

  test('plan, apply, no-op, L7 permissions, a refused protocol change, drift, destroy, import: the same against both', async () => {
    const real = await lifecycle(target(consul.address, consul.managementToken!));
    const emu = await lifecycle(target(world.env.MESH_HTTP_ADDR!, world.env.MESH_HTTP_TOKEN!));
    expect(real).toMatchObject({
      plan: { status: 2, err: '' }, apply: { status: 0, err: '' }, noop: { status: 0 }, applyL7: { status: 0, err: '' }, noopL7: { status: 0 },
      toTcp: { status: 1 }, protocolAfter: 'http', driftWrite: true, drift: { status: 2 }, repair: { status: 0 }, destroy: { status: 0 }, left: [],
      import: { status: 0 }, finalDestroy: 0,
    });
    expect((real.plan as { out: string }).out).toContain('traffic api: web may now call api (no intention decided it)');
    expect((real.applyL7 as { out: string }).out).toContain('traffic api: web may call api only as permitted per request: allow GET,POST /v1* header x-team not =web; deny ~/admin/.* (it was allowed)');
    expect((real.toTcp as { out: string; err: string }).out + (real.toTcp as { err: string }).err)
      .toContain('service "api" has protocol "tcp", which is incompatible with L7 intentions permissions');
    expect(real.stored).toEqual([{ Name: 'web', Action: 'allow', Precedence: 9, Type: 'consul' }, { Name: '*', Action: 'deny', Precedence: 8, Type: 'consul' }]);
    expect(real.repaired).toEqual(real.storedL7);
    for (const step of Object.keys(real)) expect({ step, ...{ v: emu[step] } }).toEqual({ step, ...{ v: real[step] } });
  });
});
