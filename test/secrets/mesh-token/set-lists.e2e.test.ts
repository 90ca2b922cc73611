import { MeshTokenRole } from '../../../lib/secrets/mesh-token/mesh-token-role';
import { cliAsync, startWorld, synthApp, TestWorld } from '../../support/harness';

// Lists the service keeps as sets are sent once each and compared as sets, through the CLI (the other
// set-like lists, unsorted in the kinds' samples (test/<domain>/<family>/<family>.samples.ts), are checked by test/e2e/refresh-after-apply.test.ts).
describe('set-like lists', () => {
  let world: TestWorld;
  const secrets = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${world.env.SECRETS_ADDR}/v1/${path}`, {
      method, headers: { 'x-secrets-token': world.env.SECRETS_TOKEN!, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return text ? JSON.parse(text) : undefined;
  };

  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(async () => { await world.stop(); });

  test('mesh-token role policies and roles: repeats dropped, order never a change (the app\'s or the service\'s)', async () => {
    const app = (policies: string[], roles: string[]) => synthApp((s) => {
      new MeshTokenRole(s, 'role', { name: 'web', meshPolicies: policies, meshRoles: roles });
    }, 'sets');
    let r = await cliAsync(['apply', '--synth-dir', app(['web', 'ops', 'web'], ['b', 'a', 'b']), '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect((await secrets('GET', 'mesh/roles/web')).data).toMatchObject({ mesh_policies: ['ops', 'web'], mesh_roles: ['a', 'b'] });

    r = await cliAsync(['plan', '--synth-dir', app(['ops', 'web', 'ops'], ['a', 'b']), '--detailed-exitcode'], world.env);
    expect(r.stdout).toMatch(/No changes/);
    expect(r.status).toBe(0);

    // The service answering in an order of its own is no drift either.
    await secrets('POST', 'mesh/roles/web', { mesh_policies: ['web', 'ops'], mesh_roles: ['b', 'a'] });
    r = await cliAsync(['refresh', '--synth-dir', app(['web', 'ops'], ['b', 'a'])], world.env);
    expect(r.stdout).toMatch(/0 gone, 0 drifted/);
    r = await cliAsync(['plan', '--synth-dir', app(['web', 'ops'], ['b', 'a']), '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);

    // A real change still shows.
    r = await cliAsync(['plan', '--synth-dir', app(['web'], ['b', 'a']), '--detailed-exitcode'], world.env);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/meshPolicies/);
  });
});
