import * as path from 'path';
import { App, TerraformStack } from 'cdktf';
import * as mesh from '../../../lib/mesh';
import { startConsul, RealConsul } from '../../support/consul';
import { allFiles, cliAsync, startWorld, synthApp, tempDir, TestWorld } from '../../support/harness';
import { describeWithTool, realTools } from '../../support/real-tools';

test('AclToken: refused identities name the construct and field; an import id must be an AccessorID', () => {
  const bad = new TerraformStack(new App(), 'prod');
  expect(() => new mesh.AclToken(bad, 't', { serviceIdentities: [{ serviceName: 'We b' }] })).toThrow(/prod\/t: serviceIdentities\[0\]\.serviceName/);
});

type Target = { address: string; token: string; env: NodeJS.ProcessEnv; dir: string };

async function lifecycle(t: Target) {
  const api = async (method: string, p: string, body?: unknown) => {
    const r = await fetch(`${t.address}${p}`, { method, headers: { 'X-Consul-Token': t.token }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, body: r.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text.trim() };
  };
  const outputs: string[] = [];
  const norm = (s: string) => s.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
    .replace(/https?:\/\/127\.0\.0\.1:\d+/g, 'ADDR').replace(/\b\d+(\.\d+)?\s?(ms|s)\b/g, 'T').replace(/(modifyIndex|ModifyIndex)(["\s:=]*)\d+/g, '$1$2N');
  const run = async (args: string[]) => {
    const r = await cliAsync(args, t.env);
    outputs.push(r.stdout, r.stderr);
    const ordered = (x: string) => (['apply', 'destroy'].includes(args[0]) ? x.replace(/\[\d+\/\d+\] /g, '').split('\n').sort().join('\n') : x);
    return { status: r.status, out: ordered(norm(r.stdout)), err: ordered(norm(r.stderr)) };
  };
  const shape = (x: { Description: string; Policies?: { Name: string }[]; Roles?: { Name: string }[]; ServiceIdentities?: unknown; Local: boolean }) => ({
    Description: x.Description, Policies: (x.Policies ?? []).map((p) => p.Name).sort(), Roles: (x.Roles ?? []).map((r) => r.Name).sort(),
    ServiceIdentities: x.ServiceIdentities, Local: x.Local,
  });
  // The token is declared first: its policy and role come before it from their names.
  // A second token (until the import) makes the plan read both from one list: every compared field must come back in it.
  const build = (o: { withRole?: boolean; local?: boolean; pair?: boolean }) => synthApp((st: TerraformStack) => {
    if (o.pair) {
      new mesh.AclToken(st, 'deploy', {
        description: 'deploy of api', policies: ['web-read'], roles: o.withRole ? ['web-team'] : undefined,
        serviceIdentities: [{ serviceName: 'api', datacenters: ['dc1'] }], nodeIdentities: [{ nodeName: 'node-1', datacenter: 'dc1' }],
      });
    }
    new mesh.AclToken(st, 'ci', {
      description: 'ci of web', policies: ['web-read'], roles: o.withRole ? ['web-team'] : undefined,
      serviceIdentities: [{ serviceName: 'web' }], local: o.local,
    });
    new mesh.AclPolicy(st, 'web-read', { name: 'web-read', rules: 'service "web" { policy = "read" }' });
    if (o.withRole) new mesh.AclRole(st, 'web-team', { name: 'web-team', policies: ['web-read'] });
  });
  const v1 = build({ pair: true });
  const v2 = build({ withRole: true, pair: true });
  const v3 = build({ withRole: true, local: true, pair: true });
  const vImport = build({});
  const steps: Record<string, unknown> = {};
  steps.plan = await run(['plan', '--synth-dir', v1, '--detailed-exitcode']);
  steps.apply = await run(['apply', '--synth-dir', v1, '--auto-approve']);
  const listed = (await api('GET', '/v1/acl/tokens')).body as { AccessorID: string; Description: string }[];
  const accessor = listed.find((x) => x.Description === 'ci of web')!.AccessorID;
  const created = await api('GET', `/v1/acl/token/${accessor}`);
  steps.created = shape(created.body);
  steps.noop = await run(['plan', '--synth-dir', v1, '--detailed-exitcode']);
  steps.update = await run(['apply', '--synth-dir', v2, '--auto-approve']);
  steps.updated = shape((await api('GET', `/v1/acl/token/${accessor}`)).body);
  steps.driftWrite = (await api('PUT', `/v1/acl/token/${accessor}`, { Description: 'ci of web' })).status;
  steps.drift = await run(['plan', '--synth-dir', v2, '--detailed-exitcode']);
  steps.repair = await run(['apply', '--synth-dir', v2, '--auto-approve']);
  steps.repaired = shape((await api('GET', `/v1/acl/token/${accessor}`)).body);
  // `local` cannot change on the server: the plan replaces the token.
  steps.replacePlan = (await run(['plan', '--synth-dir', v3, '--detailed-exitcode'])).status;
  steps.replace = (await run(['apply', '--synth-dir', v3, '--auto-approve'])).status;
  steps.oldGone = (await api('GET', `/v1/acl/token/${accessor}`)).status;
  steps.destroy = await run(['destroy', '--synth-dir', v3, '--auto-approve']);
  steps.left = ((await api('GET', '/v1/acl/tokens')).body as { Description: string }[]).filter((x) => x.Description === 'ci of web').length;
  // Import by AccessorID.
  await api('PUT', '/v1/acl/policy', { Name: 'web-read', Rules: 'service "web" { policy = "read" }' });
  const outside = await api('PUT', '/v1/acl/token', { Description: 'ci of web', Policies: [{ Name: 'web-read' }], ServiceIdentities: [{ ServiceName: 'web' }] });
  steps.importPolicy = (await run(['import', 'web-read', 'web-read', '--synth-dir', vImport])).status;
  steps.import = (await run(['import', 'ci', outside.body.AccessorID, '--synth-dir', vImport])).status;
  steps.importBySecret = (await run(['import', 'ci', 'not-a-uuid', '--synth-dir', vImport])).status;
  steps.afterImport = await run(['plan', '--synth-dir', vImport, '--detailed-exitcode']);
  steps.finalDestroy = (await run(['destroy', '--synth-dir', vImport, '--auto-approve'])).status;
  return { steps, secrets: [created.body.SecretID, outside.body.SecretID].filter(Boolean) as string[], outputs };
}

const expected = {
  plan: { status: 2, err: '' }, apply: { status: 0, err: '' },
  created: { Description: 'ci of web', Policies: ['web-read'], Roles: [], ServiceIdentities: [{ ServiceName: 'web' }], Local: false },
  noop: { status: 0 }, update: { status: 0, err: '' },
  updated: { Description: 'ci of web', Policies: ['web-read'], Roles: ['web-team'], ServiceIdentities: [{ ServiceName: 'web' }], Local: false },
  driftWrite: 200, drift: { status: 2 }, repair: { status: 0 },
  repaired: { Description: 'ci of web', Policies: ['web-read'], Roles: ['web-team'], ServiceIdentities: [{ ServiceName: 'web' }], Local: false },
  replacePlan: 2, replace: 0, oldGone: 403, destroy: { status: 0 }, left: 0, importPolicy: 0, import: 0, importBySecret: 1, afterImport: { status: 0 }, finalDestroy: 0,
};

/** No secret of a token the run made or imported in any file converge wrote, nor in any output. */
function expectNoSecret(t: Target, secrets: string[], outputs: string[]): void {
  const texts = [...allFiles(t.dir).map((f) => f.text), ...outputs];
  for (const s of secrets) expect(texts.filter((x) => x.includes(s)).length).toBe(0);
  for (const x of allFiles(t.dir)) expect(x.text).not.toMatch(/SecretID/i);
}

describe('AclToken through the CLI against the emulator', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  test('plan, apply (policy and role first), no-op, update, drift, replace on local, destroy, import; no SecretID kept', async () => {
    const dir = tempDir('converge-token-');
    const t = { address: world.env.MESH_HTTP_ADDR!, token: world.env.MESH_HTTP_TOKEN!, env: { ...world.env, CONVERGE_DIR: path.join(dir, '.converge') }, dir };
    const { steps, secrets, outputs } = await lifecycle(t);
    expect(steps).toMatchObject(expected);
    // The emulator answers the secret only on create: the outside token's.
    expect(secrets.length).toBe(1);
    expectNoSecret(t, secrets, outputs);
  });
});

describeWithTool('CONSUL', 'AclToken against a real Consul 1.16 with ACLs, and the emulator in its 1.16 shape', () => {
  let consul: RealConsul;
  let world: TestWorld;
  beforeAll(async () => {
    [consul, world] = await Promise.all([startConsul(realTools().CONSUL!, { acls: true }), startWorld({ meshShape: 'consul-1.16' })]);
  });
  afterAll(async () => { await Promise.all([consul?.stop(), world?.stop()]); });

  const target = (address: string, token: string): Target => {
    const dir = tempDir('converge-token-');
    return { address, token, dir, env: { ...world.env, MESH_HTTP_ADDR: address, MESH_HTTP_TOKEN: token, MESH_TOKEN_HEADER: 'X-Consul-Token', CONVERGE_DIR: path.join(dir, '.converge') } };
  };

  test('the same steps, the same outcomes; the secrets the real server answers on every read are in no file or output', async () => {
    const realTarget = target(consul.address, consul.managementToken!);
    const real = await lifecycle(realTarget);
    const emu = await lifecycle(target(world.env.MESH_HTTP_ADDR!, world.env.MESH_HTTP_TOKEN!));
    expect(real.steps).toMatchObject(expected);
    expect(real.secrets.length).toBe(2);
    expectNoSecret(realTarget, real.secrets, real.outputs);
    for (const step of Object.keys(real.steps)) expect({ step, v: emu.steps[step] }).toEqual({ step, v: real.steps[step] });
  });
});
