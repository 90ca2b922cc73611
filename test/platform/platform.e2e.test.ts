import { Construct } from 'constructs';
import { Project } from '../../lib/platform/project/project';
import { SecretValue } from '../../lib';
import { AgentPool } from '../../lib/platform/agent-pool/agent-pool';
import { NoCodeModule } from '../../lib/platform/no-code/no-code-module';
import { NoCodeWorkspace, VariableCategory } from '../../lib/platform/no-code/no-code-workspace';
import { OAuthClient, VcsServiceProvider } from '../../lib/platform/oauth-client/oauth-client';
import { allFiles, cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';
import { IOrganization, Organization } from '../../lib/platform/organization/organization';

/** The organization of that name (it exists outside the app), looked up once per stack. */
const orgNamed = (scope: Construct, name: string): IOrganization =>
  (scope.node.tryFindChild(`org-${name}`) as IOrganization | undefined) ?? Organization.fromName(scope, `org-${name}`, name);


// Through the real CLI (dist/) against the emulator: the issue-3 constructs, and the no-code upgrade sequence.
describe('platform constructs through the CLI', () => {
  let world: TestWorld;
  let project: string;
  const token = 'vcs-token-e2e-5c1b9e';
  const sensitive = 'nc-sensitive-e2e-77a2d4';

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${world.env.PLATFORM_ADDRESS}${path}`, {
      method, headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}`, 'content-type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  const build = (versionPin: string, sizes: string[]) => synthApp((stack) => {
    const mod = new NoCodeModule(stack, 'mod', {
      organization: orgNamed(stack, 'e2e-nc'), moduleName: 'bucket', moduleProvider: 'aws', versionPin,
      variableOptions: [{ variableName: 'size', variableType: 'string', options: sizes }],
    });
    new NoCodeWorkspace(stack, 'ws', {
      organization: orgNamed(stack, 'e2e-nc'), noCodeModule: mod, moduleVersion: mod.pinnedVersion, projectId: project, name: 'bucket-prod',
      variables: [{ key: 'size', value: 's' }, { key: 'TOKEN', sensitiveValue: SecretValue.fromEnv('NC_SENSITIVE'), category: VariableCategory.ENV }],
      upgradePollInterval: '20ms', upgradeTimeout: '30s',
    });
    new OAuthClient(stack, 'vcs', {
      organization: orgNamed(stack, 'e2e-nc'), name: 'main', serviceProvider: VcsServiceProvider.PROVIDER_A, key: 'k', httpUrl: 'https://vcs.example.com',
      apiUrl: 'https://api.vcs.example.com', oauthToken: SecretValue.fromEnv('VCS_TOKEN'), organizationScoped: false,
      projects: [Project.fromName(stack, 'apps', orgNamed(stack, 'e2e-nc'), 'apps')],
    });
    new AgentPool(stack, 'pool', { organization: orgNamed(stack, 'e2e-nc'), name: 'onprem' });
  }, 'nc');

  beforeAll(async () => {
    world = await startWorld({}, { VCS_TOKEN: token, NC_SENSITIVE: sensitive });
    expect((await call('POST', '/api/v2/organizations', { data: { type: 'organizations', attributes: { name: 'e2e-nc', email: 'a@b.io' } } })).status).toBe(201);
    project = (await call('POST', '/__admin/organizations/e2e-nc/projects', { name: 'apps' })).body.id;
    await call('POST', '/__admin/organizations/e2e-nc/registry-modules', { name: 'bucket', provider: 'aws', versions: ['1.0.0', '1.1.0'] });
    await call('PATCH', '/__admin/settings', { upgradeStepMs: 20 });
  });
  afterAll(async () => { await world.stop(); });

  test('apply, no-op plan, the module pin moves and the workspace upgrades, destroy', async () => {
    const v1 = build('1.0.0', ['s', 'l']);
    let r = await cliAsync(['apply', '--synth-dir', v1, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    // The project is looked up (read) as well.
    expect(r.stdout).toMatch(/Apply complete: 6 done, 0 failed, 0 skipped/);
    r = await cliAsync(['plan', '--synth-dir', v1, '--detailed-exitcode'], world.env);
    expect(r.stdout).toMatch(/No changes/);
    expect(r.status).toBe(0);

    const v2 = build('1.1.0', ['s', 'm', 'l']);
    r = await cliAsync(['plan', '--synth-dir', v2, '--detailed-exitcode', '--json'], world.env);
    expect(r.status).toBe(2);
    const changes = JSON.parse(r.stdout).stacks[0].changes;
    expect(changes.find((c: any) => c.address === 'mod').action).toBe('update');
    expect(changes.find((c: any) => c.address === 'ws').action).toBe('update');
    r = await cliAsync(['apply', '--synth-dir', v2, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const ws = await call('GET', '/api/v2/organizations/e2e-nc/workspaces/bucket-prod');
    expect(ws.body.data.attributes).toMatchObject({ 'source-module-id': 'private/e2e-nc/bucket/aws/1.1.0', 'no-code-upgrade-available': false });
    r = await cliAsync(['plan', '--synth-dir', v2, '--detailed-exitcode'], world.env);
    expect(r.stdout).toMatch(/No changes/);

    // Neither secret is ever written in clear to the state directory.
    for (const f of allFiles(world.dir)) {
      expect([f.file, f.text.includes(token) || f.text.includes(sensitive)]).toEqual([f.file, false]);
    }

    r = await cliAsync(['destroy', '--synth-dir', v2, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect((await call('GET', '/api/v2/organizations/e2e-nc/workspaces/bucket-prod')).status).toBe(404);
    expect((await call('GET', '/api/v2/organizations/e2e-nc/oauth-clients')).body.data).toEqual([]);
    expect((await call('GET', '/api/v2/organizations/e2e-nc/agent-pools')).body.data).toEqual([]);
  });
});

describe('import and drift through the CLI', () => {
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
    world = await startWorld({}, { VCS_TOKEN: 'vcs-token-import-1d2e' });
    await call('POST', '/api/v2/organizations', { data: { type: 'organizations', attributes: { name: 'e2e-imp', email: 'a@b.io' } } });
  });
  afterAll(async () => { await world.stop(); });

  test('an agent pool imported by <organization>/<name>, an OAuth client by id; drift is found and converged', async () => {
    const pool = (await call('POST', '/api/v2/organizations/e2e-imp/agent-pools', { data: { type: 'agent-pools', attributes: { name: 'onprem' } } })).body.data;
    const client = (await call('POST', '/api/v2/organizations/e2e-imp/oauth-clients', { data: { type: 'oauth-clients', attributes: {
      'service-provider': 'provider_a', name: 'main', key: 'k', 'http-url': 'https://vcs.example.com', 'api-url': 'https://api.vcs.example.com',
      'oauth-token-string': 'vcs-token-import-1d2e' } } })).body.data;
    const dir = synthApp((stack) => {
      new AgentPool(stack, 'pool', { organization: orgNamed(stack, 'e2e-imp'), name: 'onprem' });
      new OAuthClient(stack, 'vcs', {
        organization: orgNamed(stack, 'e2e-imp'), name: 'main', serviceProvider: VcsServiceProvider.PROVIDER_A, key: 'k', httpUrl: 'https://vcs.example.com',
        apiUrl: 'https://api.vcs.example.com', oauthToken: SecretValue.fromEnv('VCS_TOKEN'),
      });
    }, 'imp');
    let r = await cliAsync(['import', 'pool', 'e2e-imp/onprem', '--synth-dir', dir], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    r = await cliAsync(['import', 'vcs', client.id, '--synth-dir', dir], world.env);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Write-only fields cannot be read from the API and are taken to match the app: oauthToken/);
    r = await cliAsync(['import', 'vcs', 'e2e-imp/main', '--synth-dir', dir], world.env);
    expect(r.status).not.toBe(0);
    // The token string cannot be read back: import takes it to match the app (its HMAC is recorded),
    // so the first plan does not replace the client (which would unlink its workspaces).
    r = await cliAsync(['plan', '--synth-dir', dir, '--json'], world.env);
    const changes = JSON.parse(r.stdout).stacks[0].changes;
    expect(changes.find((c: any) => c.address === 'vcs')).toMatchObject({ action: 'noop' });
    expect(changes.find((c: any) => c.address === 'pool')).toMatchObject({ action: 'noop' });
    r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env);
    expect(r.stdout).toMatch(/No changes/);

    // Drift: the pool is made project-scoped by hand.
    await call('PATCH', `/api/v2/agent-pools/${pool.id}`, { data: { type: 'agent-pools', attributes: { 'organization-scoped': false } } });
    r = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/organizationScoped/);
    r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect((await call('GET', `/api/v2/agent-pools/${pool.id}`)).body.data.attributes['organization-scoped']).toBe(true);
  });
});
