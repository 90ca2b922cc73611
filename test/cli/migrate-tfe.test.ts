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
  const secretValues = [...of('tfe_oauth_client').map((a) => a.oauth_token), ...of('tfe_variable').map((a) => a.value)];
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
    stateFile = path.join(tempDir('converge-tfstate-'), 'terraform.tfstate');
    fs.writeFileSync(stateFile, text);
  });
  afterAll(async () => { await world?.stop(); });

  test('organizations, OAuth clients and agent pools: code with references, imported, a no-op plan; tokens only from the environment', async () => {
    expect(resources.length).toBeGreaterThanOrEqual(20);
    const dir = appDir();
    const migrated = await run(world, dir, ['migrate', 'terraform', '--state', stateFile, '--out', 'imported.ts']);
    expect(migrated.stderr).toBe('');
    expect(migrated.status).toBe(0);
    expect(migrated.stdout).toMatch(/Imported 18 object\(s\) into stack imported\./);
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
    expect(migrated.stdout).toContain('tfe_workspace.app: no converge kind for tfe_workspace');
    expect(migrated.stdout).toContain('tfe_variable.db_password: no converge kind for tfe_variable');
    expect(migrated.stdout).toContain('data.tfe_organization.existing: a data source');

    const vars = printedVariables(migrated.stdout);
    expect([...vars.values()].map((v) => v.attribute)).toEqual(Array(6).fill('oauth_token'));
    const env = Object.fromEntries([...vars].map(([name, where]) => [name, of('tfe_oauth_client')
      .find((a) => `tfe_oauth_client.${resources.find((r) => r.instances[0].attributes === a)!.name}` === where.address)!.oauth_token]));
    const plan = await run(world, dir, ['plan', '--detailed-exitcode'], env);
    expect(plan.stderr).toBe('');
    expect(plan.status).toBe(0);
    const again = await run(world, dir, ['migrate', 'terraform', '--state', stateFile, '--out', 'imported.ts']);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/18 already imported, skipped/);
    expectNoSecret(secretValues, [dir, world.dir], [migrated, plan, again]);
  });
});
