import { SecretValue } from '../../lib';
import { RemovalPolicy } from '../../lib/core/constructs/removal-policy';
import { AgentPool } from '../../lib/platform/agent-pool/agent-pool';
import { Agents } from '../../lib/platform/agent-pool/agents';
import { PlatformState } from '../../lib/platform/emulator/state';
import { NoCodeModule } from '../../lib/platform/no-code/no-code-module';
import { NoCodeWorkspace } from '../../lib/platform/no-code/no-code-workspace';
import { OAuthClient, VcsServiceProvider } from '../../lib/platform/oauth-client/oauth-client';
import { ExecutionMode, Organization } from '../../lib/platform/organization/organization';
import { allFiles, cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// `OAuthClient.fromId`, `AgentPool.fromName` and `NoCodeModule.fromRegistryModule` read an existing
// object at plan time, through the real CLI against the emulator: their typed attributes feed other
// constructs; an absent object fails the plan, naming the construct.
describe('platform lookups', () => {
  let world: TestWorld;
  const state = () => world.emulator.apis.platform.snapshot() as PlatformState;
  const orgNamed = (name: string) => Object.values(state().organizations).find((o) => o.name === name)!;
  const TOKEN = 'lookup-oauth-token-7c2e9a';

  async function send(path: string, method: string, body: unknown, jsonApi = true): Promise<any> {
    const res = await fetch(`${world.emulator.env.PLATFORM_ADDRESS}${path}`, {
      method, body: JSON.stringify(body),
      headers: { authorization: `Bearer ${world.emulator.env.PLATFORM_TOKEN}`, 'content-type': jsonApi ? 'application/vnd.api+json' : 'application/json' },
    });
    expect(res.status).toBeLessThan(300);
    return res.json();
  }
  const createOrg = (name: string) => send('/api/v2/organizations', 'POST', { data: { type: 'organizations', attributes: { name, email: 'a@b.io' } } });
  const apply = async (dir: string) => {
    const r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    return r;
  };

  beforeAll(async () => { world = await startWorld({}, { LOOKUP_TOKEN: TOKEN }); });
  afterAll(async () => world?.stop());

  test('OAuthClient.fromId: its OAuth token id feeds another construct; the client is never changed nor deleted', async () => {
    await createOrg('lk-vcs');
    const setup = synthApp((s) => {
      new OAuthClient(s, 'vcs', {
        organization: Organization.fromName(s, 'org', 'lk-vcs'), name: 'main', serviceProvider: VcsServiceProvider.PROVIDER_A,
        httpUrl: 'https://vcs.example.com', apiUrl: 'https://api.vcs.example.com', oauthToken: SecretValue.fromEnv('LOOKUP_TOKEN'),
      });
    }, 'lk-vcs-setup');
    await apply(setup);
    const client = Object.values(state().oauthClients).find((c) => c.name === 'main')!;
    const dir = synthApp((s) => {
      const vcs = OAuthClient.fromId(s, 'existing', client.id);
      new Organization(s, 'fed', { name: 'fed-by-vcs', email: 'a@b.io', ownersTeamSamlRoleId: vcs.oauthTokenId, removalPolicy: RemovalPolicy.DESTROY });
    }, 'lk-vcs');
    await apply(dir);
    expect(orgNamed('fed-by-vcs').attributes['owners-team-saml-role-id']).toBe(client.oauthTokenId);
    expect((await cliAsync(['destroy', '--synth-dir', dir, '--auto-approve'], world.env)).status).toBe(0);
    expect(state().oauthClients[client.id]).toBeDefined();
    // The client's secrets are not written anywhere by the lookup.
    for (const { file, text } of allFiles(world.dir)) expect({ file, leaked: text.includes(TOKEN) }).toEqual({ file, leaked: false });
  });

  test('AgentPool.fromName: an existing organization is switched to agent execution on its existing pool; Agents reads the pool', async () => {
    await createOrg('lk-pool');
    const pool = (await send('/api/v2/organizations/lk-pool/agent-pools', 'POST', { data: { type: 'agent-pools', attributes: { name: 'onprem' } } })).data;
    const dir = synthApp((s) => {
      const org = new Organization(s, 'org', {
        name: 'lk-pool', email: 'a@b.io', adoptExisting: true, defaultExecutionMode: ExecutionMode.AGENT,
        defaultAgentPoolId: AgentPool.fromName(s, 'pool', Organization.fromName(s, 'existing-org', 'lk-pool'), 'onprem').agentPoolId,
      });
      new Agents(s, 'agents', { agentPool: AgentPool.fromName(s, 'same-pool', org, 'onprem') });
    }, 'lk-pool');
    await apply(dir);
    expect(orgNamed('lk-pool').attributes['default-execution-mode']).toBe('agent');
    expect(orgNamed('lk-pool').attributes['default-agent-pool-id']).toBe(pool.id);
    const plan = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env);
    expect(plan.stdout).toMatch(/No changes/);
    expect(plan.status).toBe(0);
    expect(state().agentPools[pool.id]).toBeDefined();
  });

  test('NoCodeModule.fromRegistryModule: a workspace is created from an existing no-code module, at its pinned version', async () => {
    await createOrg('lk-nc');
    await send('/__admin/organizations/lk-nc/registry-modules', 'POST', { name: 'bucket', provider: 'aws', versions: ['1.0.0', '1.1.0'] }, false);
    const project = (await send('/__admin/organizations/lk-nc/projects', 'POST', { name: 'apps' }, false)).id;
    const setup = synthApp((s) => {
      new NoCodeModule(s, 'mod', { organization: Organization.fromName(s, 'org', 'lk-nc'), moduleName: 'bucket', moduleProvider: 'aws', versionPin: '1.0.0' });
    }, 'lk-nc-setup');
    await apply(setup);
    const dir = synthApp((s) => {
      const org = Organization.fromName(s, 'org', 'lk-nc');
      const mod = NoCodeModule.fromRegistryModule(s, 'mod', org, 'bucket', 'aws');
      new NoCodeWorkspace(s, 'ws', { organization: org, noCodeModule: mod, moduleVersion: mod.pinnedVersion, projectId: project, name: 'from-lookup' });
    }, 'lk-nc');
    await apply(dir);
    const ws = Object.values(state().workspaces).find((w) => w.name === 'from-lookup')!;
    const mod = Object.values(state().noCodeModules)[0];
    expect(ws.noCodeModuleId).toBe(mod.id);
    const plan = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env);
    expect(plan.stdout).toMatch(/No changes/);
    expect(plan.status).toBe(0);
  });

  test.each([
    ['an OAuth client', (s: any) => OAuthClient.fromId(s, 'missing', 'oc-doesnotexist1'), /missing: platform\.OAuthClient "oc-doesnotexist1" does not exist/],
    ['an agent pool', (s: any) => AgentPool.fromName(s, 'missing', Organization.fromName(s, 'org', 'lk-pool'), 'nope'), /missing: platform\.AgentPool "lk-pool\/nope" does not exist/],
    ['a no-code module', (s: any) => NoCodeModule.fromRegistryModule(s, 'missing', Organization.fromName(s, 'org', 'lk-nc'), 'network', 'aws'),
      /missing: platform\.NoCodeModule "lk-nc\/network\/aws" does not exist/],
  ])('%s that does not exist fails the plan, naming the construct', async (_what, build, message) => {
    const dir = synthApp((s) => { build(s); }, 'absent');
    const plan = await cliAsync(['plan', '--synth-dir', dir], world.env);
    expect(plan.status).toBe(1);
    expect(plan.stderr).toMatch(message);
  });
});
