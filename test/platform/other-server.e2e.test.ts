import * as fs from 'fs';
import * as path from 'path';
import { SecretValue } from '../../lib';
import { RemovalPolicy } from '../../lib/core/constructs/removal-policy';
import { AgentPool } from '../../lib/platform/agent-pool/agent-pool';
import { NoCodeModule } from '../../lib/platform/no-code/no-code-module';
import { OAuthClient, VcsServiceProvider } from '../../lib/platform/oauth-client/oauth-client';
import { ExecutionMode, Organization } from '../../lib/platform/organization/organization';
import { cli, cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

/**
 * Through the real CLI against the emulator answering as a second server of the platform API does
 * (`platformShape: 'otf'`, the choices OTF made that broke converge, issue 33): organizations
 * without a `name` attribute, page parameters ignored (always the first 20), text/plain 404 for
 * routes it lacks, 500 for validation, no PATCH of an OAuth client, settings it does not keep.
 */
describe('the platform against another server\'s shape', () => {
  let world: TestWorld;
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${world.env.PLATFORM_ADDRESS}/api/v2${p}`, {
      method, headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}`, 'content-type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: any = text;
    try { parsed = JSON.parse(text); } catch { /* text/plain */ }
    return { status: res.status, body: parsed, type: res.headers.get('content-type') };
  };
  const stateOf = (stack: string) => JSON.parse(fs.readFileSync(path.join(world.env.CONVERGE_DIR!, 'stacks', stack, 'state.json'), 'utf8'));

  beforeAll(async () => { world = await startWorld({ platformShape: 'otf' }, { VCS_TOKEN: 'vcs-token-otf-71c2' }); });
  afterAll(async () => { await world.stop(); });

  test('the emulator serves the other shape: no name, first page always, text/plain 404, 500 for validation, no OAuth client PATCH', async () => {
    expect((await call('POST', '/organizations', { data: { type: 'organizations', attributes: { name: 'shape-a', email: 'a@b.io' } } })).status).toBe(201);
    const org = await call('GET', '/organizations/shape-a');
    expect(org.body.data.id).toBe('shape-a');
    expect(org.body.data.attributes.name).toBeUndefined();
    const page2 = await call('GET', '/organizations?page%5Bnumber%5D=2&page%5Bsize%5D=100');
    expect(page2.body.meta.pagination['current-page']).toBe(1);
    const missing = await call('GET', '/no-code-modules/nocode-x');
    expect([missing.status, missing.type, missing.body]).toEqual([404, 'text/plain; charset=utf-8', '404 page not found\n']);
    expect((await call('POST', '/organizations', { data: { type: 'organizations', attributes: { name: 'bad name', email: 'a@b.io' } } })).status).toBe(500);
    expect((await call('PATCH', '/oauth-clients/oc-x', { data: { type: 'oauth-clients', attributes: {} } })).status).toBe(405);
  });

  test('an Organization, an AgentPool and an OAuthClient (a real provider id): create, update, drift, destroy', async () => {
    const build = (o: { email: string; scoped: boolean; url: string; poolId?: string; assessments?: boolean }) => synthApp((stack) => {
      const org = new Organization(stack, 'org', {
        name: 'otf-life', email: o.email, assessmentsEnforced: o.assessments ?? true, removalPolicy: RemovalPolicy.DESTROY,
        ...(o.poolId ? { defaultExecutionMode: ExecutionMode.AGENT, defaultAgentPoolId: o.poolId } : {}),
      });
      new AgentPool(stack, 'pool', { organization: org, name: 'onprem', organizationScoped: o.scoped });
      new OAuthClient(stack, 'vcs', {
        organization: org, name: 'main', serviceProvider: VcsServiceProvider.GITHUB, httpUrl: o.url, apiUrl: `${o.url}/api`,
        oauthToken: SecretValue.fromEnv('VCS_TOKEN'),
      });
    }, 'life');

    // Create: every record keeps the identity the next run needs; the next plan has nothing to do.
    let app = build({ email: 'a@otf.io', scoped: true, url: 'https://github.com' });
    let r = await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const records = stateOf('life').resources;
    expect(records.org.id).toBe('otf-life');
    expect(records.pool.id).toMatch(/^apool-/);
    expect(records.vcs.id).toMatch(/^oc-/);
    r = await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], world.env);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/No changes/);
    expect(r.status).toBe(0);

    // Update: the email, the agent mode on the pool (sent as the relationship), the pool's scope; a new URL replaces the client.
    const poolId = records.pool.id as string;
    app = build({ email: 'b@otf.io', scoped: false, url: 'https://github.example.com', poolId });
    r = await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const org = (await call('GET', '/organizations/otf-life')).body.data;
    expect(org.attributes.email).toBe('b@otf.io');
    expect(org.relationships['default-agent-pool'].data.id).toBe(poolId);
    expect((await call('GET', `/agent-pools/${poolId}`)).body.data.attributes['organization-scoped']).toBe(false);
    const clients = (await call('GET', '/organizations/otf-life/oauth-clients')).body.data;
    expect(clients.map((c: any) => c.attributes['http-url'])).toEqual(['https://github.example.com']);
    r = await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], world.env);
    expect(r.stdout).toMatch(/No changes/);
    expect(r.status).toBe(0);

    // Drift: the email and the pool's scope changed by hand, the client deleted by hand.
    await call('PATCH', '/organizations/otf-life', { data: { type: 'organizations', attributes: { email: 'hand@otf.io' } } });
    await call('PATCH', `/agent-pools/${poolId}`, { data: { type: 'agent-pools', attributes: { 'organization-scoped': true } } });
    await call('DELETE', `/oauth-clients/${clients[0].id}`);
    r = await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(2);
    expect(r.stdout).toContain('hand@otf.io');
    expect(r.stdout).toMatch(/organizationScoped/);
    expect(r.stdout).toMatch(/vcs[^\n]*\n?[^\n]*(deleted outside|will be created)/);
    r = await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((await call('GET', '/organizations/otf-life')).body.data.attributes.email).toBe('b@otf.io');

    // A setting the server does not keep: said once, on the plan that writes it again; never drift.
    r = await cliAsync(['plan', '--synth-dir', build({ email: 'b@otf.io', scoped: false, url: 'https://github.example.com', poolId, assessments: false })], world.env);
    expect(r.stdout).toContain('assessmentsEnforced: the server does not keep this field (it never returns it)');
    expect(r.stdout).toContain('~ assessmentsEnforced = true -> false');

    // Destroy: DELETEs really sent; nothing left (the pool first stops being the default: a default pool is not deleted).
    app = build({ email: 'b@otf.io', scoped: false, url: 'https://github.example.com' });
    r = await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['destroy', '--synth-dir', app, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((await call('GET', '/organizations/otf-life')).status).toBe(404);
    expect((await call('GET', `/agent-pools/${poolId}`)).status).toBe(404);
    expect((await call('GET', '/organizations')).body.data.map((o: any) => o.id)).not.toContain('otf-life');
    expect(fs.existsSync(path.join(world.env.CONVERGE_DIR!, 'stacks', 'life', 'state.json')) ? Object.keys(stateOf('life').resources) : []).toEqual([]);
  });

  test('import of an Organization, an AgentPool and an OAuthClient made outside converge', async () => {
    await call('POST', '/organizations', { data: { type: 'organizations', attributes: { name: 'otf-imp', email: 'i@otf.io' } } });
    const pool = (await call('POST', '/organizations/otf-imp/agent-pools', { data: { type: 'agent-pools', attributes: { name: 'onprem' } } })).body.data;
    const client = (await call('POST', '/organizations/otf-imp/oauth-clients', { data: { type: 'oauth-clients', attributes: {
      'service-provider': 'gitlab_hosted', name: 'main', 'http-url': 'https://gitlab.com', 'api-url': 'https://gitlab.com/api/v4',
      'oauth-token-string': 'vcs-token-otf-71c2' } } })).body.data;
    const app = synthApp((stack) => {
      const org = new Organization(stack, 'org', { name: 'otf-imp', email: 'i@otf.io' });
      new AgentPool(stack, 'pool', { organization: org, name: 'onprem' });
      new OAuthClient(stack, 'vcs', {
        organization: org, name: 'main', serviceProvider: VcsServiceProvider.GITLAB_HOSTED, httpUrl: 'https://gitlab.com',
        apiUrl: 'https://gitlab.com/api/v4', oauthToken: SecretValue.fromEnv('VCS_TOKEN'),
      });
    }, 'imp');
    for (const [address, id] of [['org', 'otf-imp'], ['pool', pool.id], ['vcs', client.id]]) {
      const r = cliAsync(['import', address, id, '--synth-dir', app], world.env);
      const done = await r;
      expect(done.stderr).toBe('');
      expect(done.status).toBe(0);
    }
    expect(stateOf('imp').resources.org.id).toBe('otf-imp');
    const r = await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], world.env);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/No changes/);
    expect(r.status).toBe(0);
  });

  test('more organizations than the first page: the plan reads each one instead of planning creates for those on page 2', async () => {
    for (let i = 0; i < 23; i++) {
      await call('POST', '/organizations', { data: { type: 'organizations', attributes: { name: `many-${String(i).padStart(2, '0')}`, email: 'm@otf.io' } } });
    }
    const app = synthApp((stack) => {
      for (let i = 0; i < 23; i++) new Organization(stack, `o${i}`, { name: `many-${String(i).padStart(2, '0')}`, email: 'm@otf.io' });
    }, 'many');
    const r = await cliAsync(['plan', '--synth-dir', app], world.env);
    expect(r.status).toBe(1);
    // Each exists: a conflict to import, never a create that would answer 409.
    expect(r.stdout + r.stderr).not.toMatch(/will be created/);
    expect(r.stdout + r.stderr).toMatch(/exists on the API and is not managed by converge/);
  });

  test('a kind whose routes the server lacks: the apply says the server has no such endpoint, never that the object is absent', async () => {
    await call('POST', '/organizations', { data: { type: 'organizations', attributes: { name: 'otf-nc', email: 'n@otf.io' } } });
    const app = synthApp((stack) => {
      new NoCodeModule(stack, 'mod', { organization: Organization.fromName(stack, 'org', 'otf-nc'), moduleName: 'bucket', moduleProvider: 'aws' });
    }, 'nc');
    const r = await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env);
    expect(r.status).toBe(1);
    const said = r.stdout + r.stderr;
    expect(said).toContain(`the platform server at ${world.env.PLATFORM_ADDRESS}`);
    expect(said).toContain('this server does not serve');
    expect(said).toContain('platform.NoCodeModule');
    expect(said).not.toMatch(/is not in the private registry/);
  });

  test('a 500 the server answers to a write (here: the name taken since the plan) is final: sent once, nothing adopted', async () => {
    const app = synthApp((stack) => { new Organization(stack, 'org', { name: 'otf-race', email: 'r@otf.io' }); }, 'race');
    const planFile = path.join(world.dir, 'race.plan');
    let r = await cliAsync(['plan', '--synth-dir', app, '--out', planFile], world.env);
    expect(r.status).toBe(0);
    // Somebody creates it between plan and apply.
    expect((await call('POST', '/organizations', { data: { type: 'organizations', attributes: { name: 'otf-race', email: 'other@otf.io' } } })).status).toBe(201);
    r = await cliAsync(['apply', planFile], world.env);
    expect(r.status).toBe(1);
    expect(r.stdout + r.stderr).toContain('POST /api/v2/organizations failed with 500: invalid attribute: Name has already been taken');
    // The address check's ping and one POST: no second POST, no read to adopt what somebody else made.
    expect(r.stdout).toContain('0 done, 1 failed, 0 skipped; 2 requests, 0 retries');
    expect(stateOf('race').resources.org?.status).not.toBe('created');
    expect((await call('GET', '/organizations/otf-race')).body.data.attributes.email).toBe('other@otf.io');
  });

  test('converge emulator --platform-shape takes spec or otf and names the flag otherwise', () => {
    const r = cli(['emulator', '--platform-shape', 'tfe', '--mesh-port', '0', '--platform-port', '0', '--secrets-port', '0'], { PATH: process.env.PATH, HOME: process.env.HOME });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('--platform-shape must be spec or otf (got tfe)');
  });
});
