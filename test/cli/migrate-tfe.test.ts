import * as fs from 'fs';
import * as path from 'path';
import { startWorld, tempDir, TestWorld } from '../support/harness';
import { appDir, expectNoSecret, FIXTURES, printedVariables, run, typeCheck } from './migrate-support';

jest.setTimeout(600_000);

interface Resource { mode: string; type: string; name: string; instances: { attributes: Record<string, any> }[] }

// A tfe provider state (format 4) taken over by converge, end to end through the real CLI against the emulator.
// The platform gives ids (oc-…, apool-…) when objects are made: the fixture's ids are replaced by those the
// emulator gave, as the state of a real workspace holds the server's.
describe('converge migrate terraform: a tfe state', () => {
  const fixture = fs.readFileSync(path.join(FIXTURES, 'tfe.tfstate'), 'utf8');
  const resources = (JSON.parse(fixture) as { resources: Resource[] }).resources;
  const of = (type: string) => resources.filter((r) => r.mode === 'managed' && r.type === type).map((r) => r.instances[0].attributes);
  const secretValues = [...of('tfe_oauth_client').map((a) => a.oauth_token), ...of('tfe_variable').filter((a) => a.sensitive).map((a) => a.value)];
  let world: TestWorld;
  let stateFile: string;

  const call = async (method: string, p: string, body: unknown) => {
    const r = await fetch(`${world.env.PLATFORM_ADDRESS}${p}`, {
      method, headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}`, 'content-type': 'application/vnd.api+json' }, body: JSON.stringify(body),
    });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${text}`);
    return JSON.parse(text);
  };

  beforeAll(async () => {
    world = await startWorld();
    let text = fixture;
    for (const a of [...of('tfe_organization'), { name: 'partners', email: 'partners@example.com' }]) {
      const attributes: Record<string, unknown> = { name: a.name, email: a.email };
      if (a.session_timeout_minutes) Object.assign(attributes, { 'session-timeout': a.session_timeout_minutes, 'session-remember': a.session_remember_minutes,
        'collaborator-auth-policy': a.collaborator_auth_policy, 'assessments-enforced': a.assessments_enforced, 'allow-force-delete-workspaces': a.allow_force_delete_workspaces });
      await call('POST', '/api/v2/organizations', { data: { type: 'organizations', attributes } });
    }
    for (const a of of('tfe_oauth_client')) {
      const made = await call('POST', `/api/v2/organizations/${a.organization}/oauth-clients`, { data: { type: 'oauth-clients', attributes: {
        name: a.name, 'service-provider': a.service_provider, 'http-url': a.http_url, 'api-url': a.api_url, 'oauth-token-string': a.oauth_token,
        'organization-scoped': a.organization_scoped,
      } } });
      text = text.split(`"${a.id}"`).join(`"${made.data.id}"`);
    }
    for (const a of of('tfe_agent_pool')) {
      const made = await call('POST', `/__admin/organizations/${a.organization}/agent-pools`, { name: a.name, organizationScoped: a.organization_scoped });
      text = text.split(`"${a.id}"`).join(`"${made.id ?? made.data.id}"`);
    }
    // A private-registry module made no-code ready, and its no-code module.
    for (const reg of of('tfe_registry_module')) {
      await call('PATCH', `/__admin/organizations/${reg.organization}/entitlement-set`, { 'private-module-registry': true });
      const made = await call('POST', `/__admin/organizations/${reg.organization}/registry-modules`, {
        name: reg.name, provider: reg.module_provider, versions: ['1.0.0', '1.1.0'], noCodeReady: true,
      });
      const regId = made.id ?? made.data.id;
      for (const nc of of('tfe_no_code_module').filter((x) => x.registry_module === reg.id)) {
        const ncMade = await call('POST', `/api/v2/organizations/${nc.organization}/no-code-modules`, { data: { type: 'no-code-modules',
          attributes: { enabled: nc.enabled, 'version-pin': nc.version_pin }, relationships: { 'registry-module': { data: { id: regId, type: 'registry-modules' } } } } });
        text = text.split(`"${nc.id}"`).join(`"${ncMade.data.id}"`);
      }
      text = text.split(`"${reg.id}"`).join(`"${regId}"`);
    }
    // Projects, workspaces (in a project, on an agent pool), teams and workspace variables, as the state records them.
    const now = (type: string) => (JSON.parse(text) as { resources: Resource[] }).resources
      .filter((r) => r.mode === 'managed' && r.type === type).map((r) => r.instances[0].attributes);
    for (const a of now('tfe_project')) {
      const made = await call('POST', `/api/v2/organizations/${a.organization}/projects`, { data: { type: 'projects', attributes: { name: a.name, description: a.description } } });
      text = text.split(`"${a.id}"`).join(`"${made.data.id}"`);
    }
    const defaultProjects = new Set(of('tfe_organization').map((o) => o.default_project_id));
    for (const a of now('tfe_workspace')) {
      const made = await call('POST', `/api/v2/organizations/${a.organization}/workspaces`, { data: { type: 'workspaces', attributes: {
        name: a.name, description: a.description, 'execution-mode': a.execution_mode, ...(a.agent_pool_id ? { 'agent-pool-id': a.agent_pool_id } : {}),
        'engine-version': a.terraform_version, 'working-directory': a.working_directory, 'auto-apply': a.auto_apply, 'tag-names': a.tag_names,
      }, relationships: defaultProjects.has(a.project_id) ? {} : { project: { data: { type: 'projects', id: a.project_id } } } } });
      text = text.split(`"${a.id}"`).join(`"${made.data.id}"`);
    }
    for (const a of now('tfe_team')) {
      const access = Object.fromEntries(Object.entries(a.organization_access[0]).filter(([, x]) => x).map(([k]) => [k.replace(/_/g, '-'), true]));
      const made = await call('POST', `/api/v2/organizations/${a.organization}/teams`, { data: { type: 'teams', attributes: {
        name: a.name, visibility: a.visibility, 'organization-access': access,
      } } });
      text = text.split(`"${a.id}"`).join(`"${made.data.id}"`);
    }
    for (const a of now('tfe_team_access')) {
      const permissions = a.access === 'custom' ? Object.fromEntries(Object.entries(a.permissions[0]).map(([k, x]) => [k.replace(/_/g, '-'), x])) : {};
      const made = await call('POST', '/api/v2/team-workspaces', { data: { type: 'team-workspaces', attributes: { access: a.access, ...permissions }, relationships: {
        team: { data: { type: 'teams', id: a.team_id } }, workspace: { data: { type: 'workspaces', id: a.workspace_id } },
      } } });
      text = text.split(`"${a.id}"`).join(`"${made.data.id}"`);
    }
    for (const a of now('tfe_variable_set')) {
      const made = await call('POST', `/api/v2/organizations/${a.organization}/varsets`, { data: { type: 'varsets', attributes: {
        name: a.name, description: a.description, global: a.global, priority: a.priority,
      } } });
      await fetch(`${world.env.PLATFORM_ADDRESS}/api/v2/varsets/${made.data.id}/relationships/workspaces`, {
        method: 'POST', headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}`, 'content-type': 'application/vnd.api+json' },
        body: JSON.stringify({ data: a.workspace_ids.map((id: string) => ({ type: 'workspaces', id })) }),
      });
      text = text.split(`"${a.id}"`).join(`"${made.data.id}"`);
    }
    for (const a of now('tfe_variable')) {
      const parent = a.variable_set_id ? `/api/v2/varsets/${a.variable_set_id}/relationships/vars` : `/api/v2/workspaces/${a.workspace_id}/vars`;
      const made = await call('POST', parent, { data: { type: 'vars', attributes: {
        key: a.key, value: a.value, category: a.category === 'terraform' ? 'engine' : a.category, hcl: a.hcl, sensitive: a.sensitive, description: a.description,
      } } });
      text = text.split(`"${a.id}"`).join(`"${made.data.id}"`);
    }
    stateFile = path.join(tempDir('converge-tfstate-'), 'terraform.tfstate');
    fs.writeFileSync(stateFile, text);
  });
  afterAll(async () => { await world?.stop(); });

  test('organizations, OAuth clients, agent pools, projects, workspaces, teams, team access (custom too), variable sets and variables: code with references, imported, a no-op plan; tokens only from the environment', async () => {
    expect(resources.length).toBeGreaterThanOrEqual(20);
    const dir = appDir();
    const migrated = await run(world, dir, ['migrate', 'terraform', '--state', stateFile, '--out', 'imported.ts']);
    expect(migrated.stderr).toBe('');
    expect(migrated.status).toBe(0);
    expect(migrated.stdout).toMatch(/Imported 33 object\(s\) into stack imported\./);
    const code = fs.readFileSync(path.join(dir, 'imported.ts'), 'utf8');
    // The organization a resource names becomes a reference to its construct, or a lookup when the state does not hold it.
    expect(code).toMatch(/new platform\.OAuthClient\(this, 'github', \{\n {6}organization: acme,/);
    expect(code).toMatch(/new platform\.AgentPool\(this, 'etl', \{\n {6}organization: data,/);
    expect(code).toContain("const orgPartners = platform.Organization.fromName(this, 'org-partners', 'partners');");
    expect(code).toContain('collaboratorAuthPolicy: platform.CollaboratorAuthPolicy.TWO_FACTOR_MANDATORY,');
    expect(code).toContain("oauthToken: SecretValue.fromEnv('TFE_OAUTH_CLIENT_GITHUB_OAUTH_TOKEN'),");
    expect(typeCheck(dir)).toEqual({ status: 0, output: '' });
    expect(code).toMatch(/new platform\.NoCodeModule\(this, 'bucket', \{\n {6}organization: acme,\n {6}moduleName: 'bucket',\n {6}moduleProvider: 'aws',\n {6}versionPin: '1\.0\.0',/);
    expect(migrated.stdout).toContain('tfe_registry_module.bucket: no converge kind for tfe_registry_module');
    // A workspace names its project and agent pool by construct; the organization's default project is left out.
    expect(code).toMatch(/const apps = new platform\.Project\(this, 'apps', \{\n {6}organization: acme,\n {6}name: 'apps',\n {6}description: 'Customer-facing services',/);
    expect(code).toMatch(/new platform\.Workspace\(this, 'api', \{\n {6}organization: acme,\n {6}name: 'api',\n {6}description: 'The public API',\n {6}project: apps,\n {6}executionMode: platform\.ExecutionMode\.AGENT,\n {6}agentPool: builders,/);
    expect(code).toMatch(/const appConstruct = new platform\.Workspace\(this, 'app', \{\n {6}organization: acme,\n {6}name: 'app',\n {6}terraformVersion: '1\.9\.8',/);
    expect(code).toMatch(/new platform\.Team\(this, 'platform', \{\n {6}organization: acme,\n {6}name: 'platform',\n {6}visibility: platform\.TeamVisibility\.ORGANIZATION,\n {6}organizationAccess: \{\n {8}manageWorkspaces: true,\n {8}manageProjects: true,\n {8}readProjects: true,/);
    expect(code).toContain("sensitiveValue: SecretValue.fromEnv('TFE_VARIABLE_DB_PASSWORD_VALUE'),");
    expect(code).toMatch(/new platform\.Variable\(this, 'region', \{\n {6}workspace: appConstruct,\n {6}key: 'region',\n {6}value: 'eu-west-1',/);
    expect(code).toContain('category: platform.VariableCategory.ENV,');
    expect(code).toMatch(/new platform\.TeamAccess\(this, 'platform_api', \{\n {6}team: platformConstruct,\n {6}workspace: api,\n {6}access: platform\.TeamAccessLevel\.ADMIN,/);
    // A custom access: its permissions, those that differ from each default.
    expect(code).toMatch(/new platform\.TeamAccess\(this, 'release_api_custom', \{\n {6}team: release,\n {6}workspace: api,\n {6}permissions: \{\n {8}stateVersions: platform\.TeamAccessStateVersionsPermission\.READ_OUTPUTS,\n {6}\},/);
    // A variable set with its workspaces, and its own variables (one sensitive, from the environment).
    expect(code).toMatch(/const cloud = new platform\.VariableSet\(this, 'cloud', \{\n {6}organization: acme,\n {6}name: 'cloud credentials',\n {6}description: 'Shared cloud settings',\n {6}workspaces: \[\n {8}appConstruct,\n {6}\],/);
    expect(code).toMatch(/new platform\.Variable\(this, 'cloud_region', \{\n {6}variableSet: cloud,\n {6}key: 'CLOUD_REGION',\n {6}value: 'eu-central-1',/);
    expect(code).toContain("sensitiveValue: SecretValue.fromEnv('TFE_VARIABLE_CLOUD_TOKEN_VALUE'),");
    expect(migrated.stdout).toContain('data.tfe_organization.existing: a data source');

    const vars = printedVariables(migrated.stdout);
    expect([...vars.values()].map((v) => `${v.address.split('.')[0]} ${v.attribute}`).sort())
      .toEqual([...Array(6).fill('tfe_oauth_client oauth_token'), ...Array(3).fill('tfe_variable value')]);
    const migratedState = (JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { resources: Resource[] }).resources;
    const env = Object.fromEntries([...vars].map(([name, where]) => [name,
      migratedState.find((r) => `${r.type}.${r.name}` === where.address)!.instances[0].attributes[where.attribute]]));
    const plan = await run(world, dir, ['plan', '--detailed-exitcode'], env);
    expect(plan.stderr).toBe('');
    expect(plan.status).toBe(0);
    const again = await run(world, dir, ['migrate', 'terraform', '--state', stateFile, '--out', 'imported.ts']);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/33 already imported, skipped/);
    expectNoSecret(secretValues, [dir, world.dir], [migrated, plan, again]);
  });
});
