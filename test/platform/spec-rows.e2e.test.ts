import { Construct } from 'constructs';
import { SecretValue } from '../../lib';
import { DataRetentionPolicy } from '../../lib/platform/organization/data-retention-policy';
import { NoCodeModule } from '../../lib/platform/no-code/no-code-module';
import { NoCodeWorkspace } from '../../lib/platform/no-code/no-code-workspace';
import { OAuthClient, VcsServiceProvider } from '../../lib/platform/oauth-client/oauth-client';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';
import { IOrganization, Organization } from '../../lib/platform/organization/organization';

/** The organization of that name (it exists outside the app), looked up once per stack. */
const orgNamed = (scope: Construct, name: string): IOrganization =>
  (scope.node.tryFindChild(`org-${name}`) as IOrganization | undefined) ?? Organization.fromName(scope, `org-${name}`, name);


// The spec's remaining rows through the real CLI against the emulator (self-hosted edition, for the
// data retention policy): a no-code module destroyed and re-created, a removed or changed explicit
// retention policy seen as such, drift on a no-code workspace's variables, an OAuth client with neither name nor key.
describe('spec rows through the CLI', () => {
  let world: TestWorld;
  let project: string;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${world.env.PLATFORM_ADDRESS}${path}`, {
      method, headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}`, 'content-type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const run = (args: string[]) => cliAsync(args, world.env);

  beforeAll(async () => {
    world = await startWorld({ platformEdition: 'self-hosted' }, { VCS_TOKEN: 'vcs-token-rows-1f2e' });
    expect((await call('POST', '/api/v2/organizations', { data: { type: 'organizations', attributes: { name: 'rows', email: 'a@b.io' } } })).status).toBe(201);
    project = (await call('POST', '/__admin/organizations/rows/projects', { name: 'apps' })).body.id;
    await call('POST', '/__admin/organizations/rows/registry-modules', { name: 'bucket', provider: 'aws', versions: ['1.0.0'] });
  });
  afterAll(async () => { await world.stop(); });

  test('a no-code module destroyed and re-created; drift on its workspace variables is found and converged', async () => {
    const app = synthApp((stack) => {
      const mod = new NoCodeModule(stack, 'mod', { organization: orgNamed(stack, 'rows'), moduleName: 'bucket', moduleProvider: 'aws' });
      new NoCodeWorkspace(stack, 'ws', {
        organization: orgNamed(stack, 'rows'), noCodeModule: mod, projectId: project, name: 'bucket-ws',
        variables: [{ key: 'size', value: 's' }], upgradePollInterval: '20ms', upgradeTimeout: '30s',
      });
    }, 'nc');
    await call('PATCH', '/__admin/settings', { upgradeStepMs: 20 });
    let r = await run(['apply', '--synth-dir', app, '--auto-approve']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);

    // Someone changes the variable outside converge: the plan shows it, apply converges it.
    const ws = (await call('GET', '/api/v2/organizations/rows/workspaces/bucket-ws')).body.data;
    const vars = (await call('GET', `/api/v2/workspaces/${ws.id}/vars`)).body.data;
    expect(vars.map((v: any) => [v.attributes.key, v.attributes.value])).toEqual([['size', 's']]);
    expect((await call('PATCH', `/api/v2/workspaces/${ws.id}/vars/${vars[0].id}`, { data: { type: 'vars', attributes: { value: 'xl' } } })).status).toBe(200);
    r = await run(['plan', '--synth-dir', app, '--detailed-exitcode']);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/variables\[0\]\.value[^\n]*"xl"[^\n]*"s"/);
    r = await run(['apply', '--synth-dir', app, '--auto-approve']);
    expect(r.status).toBe(0);
    expect((await call('GET', `/api/v2/workspaces/${ws.id}/vars`)).body.data[0].attributes.value).toBe('s');
    r = await run(['plan', '--synth-dir', app, '--detailed-exitcode']);
    expect(r.stdout).toMatch(/No changes/);

    // Destroy disables the module (the platform has no delete); applying again enables it.
    r = await run(['destroy', '--synth-dir', app, '--auto-approve']);
    expect(r.status).toBe(0);
    const reg = (await call('GET', '/api/v2/organizations/rows/registry-modules/private/rows/bucket/aws')).body.data;
    const modId = reg.relationships['no-code-modules'].data[0].id;
    expect((await call('GET', `/api/v2/no-code-modules/${modId}`)).body.data.attributes.enabled).toBe(false);
    r = await run(['apply', '--synth-dir', app, '--auto-approve']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((await call('GET', `/api/v2/no-code-modules/${modId}`)).body.data.attributes.enabled).toBe(true);
    r = await run(['plan', '--synth-dir', app, '--detailed-exitcode']);
    expect(r.stdout).toMatch(/No changes/);
    expect((await run(['destroy', '--synth-dir', app, '--auto-approve'])).status).toBe(0);
  });

  test('a disabled no-code module is enabled again by POST: 200, same id (the state table)', async () => {
    await call('POST', '/__admin/organizations/rows/registry-modules', { name: 'again', provider: 'aws', versions: ['1.0.0'] });
    const reg = (await call('GET', '/api/v2/organizations/rows/registry-modules/private/rows/again/aws')).body.data;
    const body = (enabled: boolean) => ({ data: { type: 'no-code-modules', attributes: { enabled }, relationships: { 'registry-module': { data: { id: reg.id, type: 'registry-modules' } } } } });
    const first = await call('POST', '/api/v2/organizations/rows/no-code-modules', body(true));
    expect(first.status).toBe(200);
    expect((await call('POST', '/api/v2/organizations/rows/no-code-modules', body(true))).status).toBe(422);
    await call('PATCH', `/api/v2/no-code-modules/${first.body.data.id}`, { data: { type: 'no-code-modules', attributes: { enabled: false } } });
    const again = await call('POST', '/api/v2/organizations/rows/no-code-modules', body(true));
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: first.body.data.id, attributes: { enabled: true } });
  });

  test('data retention policy: a changed one is drift, a removed one (the default shows through) is gone', async () => {
    const app = synthApp((stack) => { new DataRetentionPolicy(stack, 'drp', { organization: orgNamed(stack, 'rows'), deleteOlderThanNDays: 30 }); }, 'drp');
    let r = await run(['apply', '--synth-dir', app, '--auto-approve']);
    expect(r.status).toBe(0);
    const path = '/api/v2/organizations/rows/relationships/data-retention-policy';
    await call('POST', path, { data: { type: 'data-retention-policy-delete-olders', attributes: { 'delete-older-than-n-days': 7 } } });
    r = await run(['plan', '--synth-dir', app, '--detailed-exitcode']);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/deleteOlderThanNDays[^\n]*7[^\n]*30/);
    expect((await run(['apply', '--synth-dir', app, '--auto-approve'])).status).toBe(0);

    // Removed outside converge: the read answers the installation default, which is not ours.
    expect((await call('DELETE', path)).status).toBe(204);
    r = await run(['plan', '--synth-dir', app, '--detailed-exitcode']);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/drp \(platform\.DataRetentionPolicy\)[^\n]*created/);
    expect((await run(['apply', '--synth-dir', app, '--auto-approve'])).status).toBe(0);
    expect((await call('GET', path)).body.data.attributes['delete-older-than-n-days']).toBe(30);
    expect((await run(['destroy', '--synth-dir', app, '--auto-approve'])).status).toBe(0);
  });

  test('an OAuth client with a token string and neither key nor name', async () => {
    const app = synthApp((stack) => {
      new OAuthClient(stack, 'vcs', {
        organization: orgNamed(stack, 'rows'), serviceProvider: VcsServiceProvider.PROVIDER_A, httpUrl: 'https://vcs.example.com',
        apiUrl: 'https://api.vcs.example.com', oauthToken: SecretValue.fromEnv('VCS_TOKEN'),
      });
    }, 'vcs');
    let r = await run(['apply', '--synth-dir', app, '--auto-approve']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const list = (await call('GET', '/api/v2/organizations/rows/oauth-clients')).body.data;
    expect(list[0].attributes).toMatchObject({ name: null, key: null });
    r = await run(['plan', '--synth-dir', app, '--detailed-exitcode']);
    expect(r.stdout).toMatch(/No changes/);
    expect((await run(['destroy', '--synth-dir', app, '--auto-approve'])).status).toBe(0);
  });
});
