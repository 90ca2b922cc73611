import { Construct } from 'constructs';
import { NoCodeModule } from '../../../lib/platform/no-code/no-code-module';
import { cliAsync, startWorld, synthApp, TestWorld } from '../../support/harness';
import { IOrganization, Organization } from '../../../lib/platform/organization/organization';

/** The organization of that name (it exists outside the app), looked up once per stack. */
const orgNamed = (scope: Construct, name: string): IOrganization =>
  (scope.node.tryFindChild(`org-${name}`) as IOrganization | undefined) ?? Organization.fromName(scope, `org-${name}`, name);


// A no-code module without `versionPin` leaves the pin to the server ("the latest version when
// enabled; then not managed"): the spec holds no pin, and whatever the server holds is no change.
describe('NoCodeModule versionPin left unset', () => {
  let world: TestWorld;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${world.env.PLATFORM_ADDRESS}${path}`, {
      method, headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}`, 'content-type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    world = await startWorld();
    await call('POST', '/api/v2/organizations', { data: { type: 'organizations', attributes: { name: 'nc-pin', email: 'a@b.io' } } });
    await call('POST', '/__admin/organizations/nc-pin/registry-modules', { name: 'bucket', provider: 'aws', versions: ['1.0.0', '1.1.0'] });
  });
  afterAll(async () => { await world.stop(); });

  test('apply, the server\'s pin moves: refresh reports no drift, plan no change; a pin the app sets is compared', async () => {
    const unpinned = synthApp((s) => { new NoCodeModule(s, 'mod', { organization: orgNamed(s, 'nc-pin'), moduleName: 'bucket', moduleProvider: 'aws' }); }, 'nc');
    let r = await cliAsync(['apply', '--synth-dir', unpinned, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    const state = await cliAsync(['state', 'show', 'mod', '--stack', 'nc'], world.env);
    expect(state.stdout).toMatch(/"spec": {/);
    expect(state.stdout).not.toMatch(/"spec": {[^}]*versionPin/);

    const reg = await call('GET', '/api/v2/organizations/nc-pin/registry-modules/private/nc-pin/bucket/aws');
    const id = reg.body.data.relationships['no-code-modules'].data[0].id;
    expect((await call('PATCH', `/api/v2/no-code-modules/${id}`, { data: { type: 'no-code-modules', attributes: { 'version-pin': '1.0.0' } } })).status).toBe(200);
    r = await cliAsync(['refresh', '--synth-dir', unpinned], world.env);
    expect(r.stdout).toMatch(/0 gone, 0 drifted/);
    r = await cliAsync(['plan', '--synth-dir', unpinned, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);

    const pinned = synthApp((s) => { new NoCodeModule(s, 'mod', { organization: orgNamed(s, 'nc-pin'), moduleName: 'bucket', moduleProvider: 'aws', versionPin: '1.1.0' }); }, 'nc');
    r = await cliAsync(['plan', '--synth-dir', pinned, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/versionPin = "1.0.0" -> "1.1.0"/);
  });
});
