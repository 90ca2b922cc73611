import { TerraformStack } from 'cdktf';
import * as mesh from '../../../lib/mesh';
import { cliAsync, startWorld, synthApp, TestWorld } from '../../support/harness';

// mesh.ServiceIntentions end to end through the real CLI (dist/) against the emulator, in both of its shapes.
describe.each(['spec', 'consul-1.16'] as const)('ServiceIntentions through the CLI (--mesh-shape %s)', (shape) => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld({ meshShape: shape }); });
  afterAll(async () => { await world.stop(); });

  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${world.env.MESH_HTTP_ADDR}${path}`, {
      method, headers: { 'x-mesh-token': world.env.MESH_HTTP_TOKEN! }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, body: r.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
  };

  const build = (sources: mesh.IntentionSource[], stackName = 'e2e') => synthApp((st: TerraformStack) => {
    new mesh.ServiceIntentions(st, 'api-intentions', { name: 'api', sources });
    new mesh.ServiceDefaults(st, 'api-defaults', { name: 'api', protocol: mesh.MeshProtocol.HTTP });
  }, stackName);

  test('plan notes who may call whom; apply; no drift; L7 permissions; drift; destroy', async () => {
    // `*` first in the props: the mesh ranks exact names first, and so does the construct (no drift after apply).
    const v1 = build([{ name: '*', action: mesh.IntentionAction.DENY }, { name: 'web', action: mesh.IntentionAction.ALLOW, description: 'the front end' }]);
    let r = await cliAsync(['plan', '--synth-dir', v1, '--detailed-exitcode'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/api-intentions \(mesh\.ServiceIntentions\) will be created/);
    expect(r.stdout).toContain('traffic api: web may now call api (no intention decided it)');
    expect(r.stdout).toContain('traffic api: every other service is now denied calling api (no intention decided it)');

    r = await cliAsync(['apply', '--synth-dir', v1, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const stored = (await call('GET', '/v1/config/service-intentions/api')).body;
    expect(stored.Sources).toEqual([
      { Name: 'web', Action: 'allow', Description: 'the front end', Precedence: 9, Type: 'consul' },
      { Name: '*', Action: 'deny', Precedence: 8, Type: 'consul' },
    ]);
    r = await cliAsync(['plan', '--synth-dir', v1, '--detailed-exitcode'], world.env);
    expect(r.stdout).not.toMatch(/traffic api/);
    expect(r.status).toBe(0);

    // web is denied: the plan says so in the words.
    const v2 = build([{ name: 'web', action: mesh.IntentionAction.DENY }, { name: '*', action: mesh.IntentionAction.DENY }]);
    r = await cliAsync(['plan', '--synth-dir', v2, '--detailed-exitcode', '--json'], world.env);
    expect(r.status).toBe(2);
    const doc = JSON.parse(r.stdout);
    expect(doc.stacks[0].notes).toEqual(['traffic api: web may no longer call api (it was allowed)']);

    // L7: web may GET /v1 only; the plan shows the permissions.
    const v3 = build([
      { name: 'web', permissions: [{ action: mesh.IntentionAction.ALLOW, http: { pathPrefix: '/v1', methods: ['GET'], header: [{ name: 'x-team', exact: 'web' }] } }] },
      { name: '*', action: mesh.IntentionAction.DENY },
    ]);
    r = await cliAsync(['apply', '--synth-dir', v3, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('traffic api: web may call api only as permitted per request: allow GET /v1* header x-team =web (it was allowed)');
    expect((await call('GET', '/v1/config/service-intentions/api')).body.Sources[0]).toEqual({
      Name: 'web', Permissions: [{ Action: 'allow', HTTP: { PathPrefix: '/v1', Methods: ['GET'], Header: [{ Name: 'x-team', Exact: 'web' }] } }],
      Precedence: 9, Type: 'consul',
    });
    r = await cliAsync(['plan', '--synth-dir', v3, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);

    // A change made outside converge is drift, and apply puts the entry back.
    const current = (await call('GET', '/v1/config/service-intentions/api')).body;
    expect((await call('PUT', '/v1/config', { Kind: 'service-intentions', Name: 'api', Sources: [{ Name: 'web', Action: 'allow' }] })).body).toBe(true);
    r = await cliAsync(['plan', '--synth-dir', v3, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/api-intentions[\s\S]*sources/);
    r = await cliAsync(['apply', '--synth-dir', v3, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect((await call('GET', '/v1/config/service-intentions/api')).body.Sources).toEqual(current.Sources);

    r = await cliAsync(['destroy', '--synth-dir', v3, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((await call('GET', '/v1/config/service-intentions/api')).status).toBe(404);
  });

  test('L7 permissions on a tcp service: the server refuses with its message, nothing written', async () => {
    const app = synthApp((st) => {
      new mesh.ServiceIntentions(st, 'db-intentions', {
        name: 'db', sources: [{ name: 'web', permissions: [{ action: mesh.IntentionAction.ALLOW, http: { pathExact: '/q' } }] }],
      });
    }, 'tcp');
    const r = await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env);
    expect(r.status).toBe(1);
    expect(r.stdout + r.stderr).toContain('service "db" has protocol "tcp", which is incompatible with L7 intentions permissions');
    expect((await call('GET', '/v1/config/service-intentions/db')).status).toBe(404);
  });

  test('import intentions written outside converge, then no change', async () => {
    expect((await call('PUT', '/v1/config', { Kind: 'service-intentions', Name: 'billing', Sources: [{ Name: '*', Action: 'deny' }, { Name: 'web', Action: 'allow' }] })).body).toBe(true);
    const app = synthApp((st) => {
      new mesh.ServiceIntentions(st, 'billing', {
        name: 'billing', sources: [{ name: 'web', action: mesh.IntentionAction.ALLOW }, { name: '*', action: mesh.IntentionAction.DENY }],
      });
    }, 'imp');
    let r = await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], world.env);
    expect(r.stdout + r.stderr).toContain('converge import');
    r = await cliAsync(['import', '--synth-dir', app, 'billing', 'service-intentions/billing'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    r = await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);
  });
});
