import * as path from 'path';
import { allFiles, cliAsync, ROOT, startWorld, TestWorld } from '../support/harness';


// examples/platform-onboarding run as a user would: the real CLI (dist/) in the example's directory, against the
// emulator. Between the two stacks the test does what the README asks of the platform: a project and a published
// registry module in the new organization (through the emulator's admin interface).
describe('examples/platform-onboarding', () => {
  const dir = path.join(ROOT, 'examples', 'platform-onboarding');
  const vcsToken = 'vcs-oauth-token-onboarding-5e7a2c';
  let world: TestWorld;
  // As the README says: the app reads TEAM_ORG and TEAM_PROJECT_ID, so they are named for synthesis.
  beforeAll(async () => { world = await startWorld({}, { TEAM_VCS_TOKEN: vcsToken, CONVERGE_SYNTH_ENV: 'TEAM_ORG,TEAM_PROJECT_ID' }); });
  afterAll(async () => { await world.stop(); });

  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${world.env.PLATFORM_ADDRESS}${p}`, {
      method, headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}`, 'content-type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const run = (env: NodeJS.ProcessEnv, ...args: string[]) => cliAsync(args, env, dir);

  test('organization stack, then (after the module is published) the workspaces stack: plan, apply, no-op plan, destroy', async () => {
    // Stage 1: the organization, its VCS connection and its agent pool.
    let r = await run(world.env, 'plan', '--stack', 'team-org', '--detailed-exitcode');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(2);
    for (const a of ['org', 'vcs', 'agents']) expect(r.stdout).toMatch(new RegExp(`${a} \\(platform\\.\\w+\\) will be created`));
    r = await run(world.env, 'apply', '--stack', 'team-org', '--auto-approve');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((await call('GET', '/api/v2/organizations/payments-team')).body.data.attributes).toMatchObject({
      email: 'payments-team@acme.example', 'collaborator-auth-policy': 'two_factor_mandatory', 'cost-estimation-enabled': true,
    });
    const clients = (await call('GET', '/api/v2/organizations/payments-team/oauth-clients')).body.data;
    expect(clients.map((c: any) => [c.attributes.name, c.attributes['service-provider']])).toEqual([['acme-vcs', 'provider_a']]);
    expect((await call('GET', '/api/v2/organizations/payments-team/agent-pools')).body.data.map((p: any) => p.attributes.name)).toEqual(['payments-onprem']);

    // What the README asks for between the stages: the team's project, and its module published in the registry.
    const project = await call('POST', '/__admin/organizations/payments-team/projects', { name: 'payments' });
    expect(project.status).toBe(201);
    expect((await call('POST', '/__admin/organizations/payments-team/registry-modules',
      { name: 'storage-bucket', provider: 'aws', versions: ['1.0.0', '1.1.0'] })).status).toBe(201);
    await call('PATCH', '/__admin/settings', { upgradeStepMs: 20 });
    const env = { ...world.env, TEAM_PROJECT_ID: project.body.id };

    // Stage 2: the no-code module and a workspace built from it.
    r = await run(env, 'plan', '--stack', 'team-workspaces', '--detailed-exitcode');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(2);
    for (const a of ['bucket-module', 'assets-bucket']) expect(r.stdout).toMatch(new RegExp(`${a} \\(platform\\.\\w+\\) will be created`));
    r = await run(env, 'apply', '--stack', 'team-workspaces', '--auto-approve');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const registry = await call('GET', '/api/v2/organizations/payments-team/registry-modules/private/payments-team/storage-bucket/aws');
    const moduleId = registry.body.data.relationships['no-code-modules'].data[0].id;
    expect((await call('GET', `/api/v2/no-code-modules/${moduleId}`)).body.data.attributes).toMatchObject({ enabled: true, 'version-pin': '1.1.0' });
    const ws = await call('GET', '/api/v2/organizations/payments-team/workspaces/payments-assets');
    expect(ws.status).toBe(200);
    expect(ws.body.data.attributes).toMatchObject({ 'source-module-id': 'private/payments-team/storage-bucket/aws/1.1.0', 'auto-apply': true });

    // Nothing left to change in either stack.
    for (const stack of ['team-org', 'team-workspaces']) {
      r = await run(env, 'plan', '--stack', stack, '--detailed-exitcode');
      expect([stack, r.stdout]).toEqual([stack, expect.stringMatching(/No changes/)]);
      expect(r.status).toBe(0);
    }
    for (const f of allFiles(world.dir)) expect([f.file, f.text.includes(vcsToken)]).toEqual([f.file, false]);

    // Destroy in reverse order: the workspace is deleted and the module disabled (the platform has no delete);
    // then the VCS connection and the pool are deleted, and the organization, retained, is only forgotten.
    r = await run(env, 'destroy', '--stack', 'team-workspaces', '--auto-approve');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((await call('GET', '/api/v2/organizations/payments-team/workspaces/payments-assets')).status).toBe(404);
    expect((await call('GET', `/api/v2/no-code-modules/${moduleId}`)).body.data.attributes.enabled).toBe(false);
    r = await run(env, 'destroy', '--stack', 'team-org', '--auto-approve');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((await call('GET', '/api/v2/organizations/payments-team/oauth-clients')).body.data).toEqual([]);
    expect((await call('GET', '/api/v2/organizations/payments-team/agent-pools')).body.data).toEqual([]);
    expect((await call('GET', '/api/v2/organizations/payments-team')).status).toBe(200);
  });
});
