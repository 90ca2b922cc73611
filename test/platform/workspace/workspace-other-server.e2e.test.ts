import { IOrganization, Organization } from '../../../lib/platform/organization/organization';
import { Variable } from '../../../lib/platform/variable/variable';
import { Workspace } from '../../../lib/platform/workspace/workspace';
import { cliAsync, startWorld, synthApp, TestWorld } from '../../support/harness';

/**
 * Through the real CLI against the emulator answering as a second server of the platform API
 * (`platformShape: 'otf'`): its workspaces name the Terraform version `terraform-version` (the
 * spec `engine-version`), and it ignores the spec's name in a request.
 */
describe('Workspace against another server\'s shape', () => {
  let world: TestWorld;
  const call = async (method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${world.env.PLATFORM_ADDRESS}/api/v2${p}`, {
      method, headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}`, 'content-type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    world = await startWorld({ platformShape: 'otf' });
    expect((await call('POST', '/organizations', { data: { type: 'organizations', attributes: { name: 'otf-ws', email: 'a@b.io' } } })).status).toBe(201);
  });
  afterAll(async () => { await world.stop(); });

  test('the Terraform version is set and read under the other server\'s name; the plan after apply is a no-op; a change converges', async () => {
    const app = (version: string) => synthApp((s) => {
      const org: IOrganization = Organization.fromName(s, 'org', 'otf-ws');
      const ws = new Workspace(s, 'ws', { organization: org, name: 'web', terraformVersion: version, autoApply: true, tags: ['a'] });
      new Variable(s, 'v', { workspace: ws, key: 'region', value: 'eu' });
    }, 'otfws');
    let r = await cliAsync(['apply', '--synth-dir', app('1.9.5'), '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const ws = (await call('GET', '/organizations/otf-ws/workspaces/web')).body.data;
    expect(ws.attributes['terraform-version']).toBe('1.9.5');
    expect(ws.attributes['engine-version']).toBeUndefined();
    r = await cliAsync(['plan', '--synth-dir', app('1.9.5'), '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['apply', '--synth-dir', app('1.10.0'), '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect((await call('GET', `/workspaces/${ws.id}`)).body.data.attributes['terraform-version']).toBe('1.10.0');
    r = await cliAsync(['plan', '--synth-dir', app('1.10.0'), '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);
  });
});
