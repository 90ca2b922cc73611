import { App, TerraformStack } from 'cdktf';
import { ConvergeTesting } from '../../lib/core/constructs/testing';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import {
  AgentPool, Agents, AgentStatus, DataRetentionPolicy, ModuleProducers, NoCodeModule, NoCodeWorkspace, OAuthClient, Organization,
  OrganizationEntitlements, Project, VariableCategory, VcsServiceProvider, Workspace,
} from '../../lib/platform';
import { camelCase } from '../../lib/platform/client/jsonapi';
import { OAUTH_CLIENT_CREATE_BODY } from './spec-resources';

function stack(): TerraformStack {
  return new TerraformStack(new App(), 'test');
}
/** An organization the constructs of a stack belong to (looked up: it exists outside the app). */
const acme = (s: TerraformStack) => (s.node.tryFindChild('acme') as Organization | undefined) ?? Organization.fromName(s, 'acme', 'acme');
const resources = (s: TerraformStack) => ConvergeTesting.desiredState(s).resources;

describe('OAuthClient', () => {
  const base = (s: TerraformStack) => ({
    organization: acme(s), name: 'main', serviceProvider: VcsServiceProvider.PROVIDER_A, key: 'k',
    httpUrl: 'https://vcs.example.com', apiUrl: 'https://api.vcs.example.com', oauthToken: SecretValue.fromEnv('VCS_TOKEN'),
  });

  test('renders every create attribute of the spec with its default; secrets as their source only', () => {
    const s = stack();
    const c = new OAuthClient(s, 'vcs', { ...base(s), projects: [Project.fromName(s, 'prj-b', acme(s), 'b'), Project.fromName(s, 'prj-a', acme(s), 'a')] });
    // Typed attributes: strings that render as references wherever another construct takes them.
    new Organization(s, 'fed', { name: 'fed', email: 'a@b.io', ownersTeamSamlRoleId: c.oauthTokenId });
    new Organization(s, 'fed2', { name: 'fed2', email: 'a@b.io', ownersTeamSamlRoleId: c.oauthClientId });
    const r = resources(s).vcs;
    expect(r.kind).toBe('platform.OAuthClient');
    // Every body attribute of the spec has a spec key (the token string as `oauthToken`).
    for (const row of OAUTH_CLIENT_CREATE_BODY.filter((b) => b.key.startsWith('data.attributes.'))) {
      const key = camelCase(row.key.replace('data.attributes.', '')).replace('oauthTokenString', 'oauthToken');
      expect(Object.keys(r.spec)).toContain(key);
    }
    expect(r.spec).toMatchObject({ organizationScoped: true, projects: [{ $ref: 'prj-b', attr: 'id' }, { $ref: 'prj-a', attr: 'id' }], privateKey: null, secret: null, rsaPublicKey: null });
    expect(r.spec.oauthToken).toEqual({ $secret: { env: 'VCS_TOKEN' } });
    expect(typeof c.oauthClientId).toBe('string');
    expect(resources(s).fed.spec.ownersTeamSamlRoleId).toEqual({ $ref: 'vcs', attr: 'oauthTokenId' });
    expect(resources(s).fed2.spec.ownersTeamSamlRoleId).toEqual({ $ref: 'vcs', attr: 'id' });
    expect(r.dependsOn).toEqual(['acme', 'prj-a', 'prj-b']);
    expect(r.spec.organization).toBe('acme');
  });

  test('references the organization (a construct): its name in the spec, a dependency on it', () => {
    const s = stack();
    const org = new Organization(s, 'org', { name: 'acme', email: 'a@b.io' });
    new OAuthClient(s, 'vcs', { ...base(s), organization: org });
    expect(resources(s).vcs.dependsOn).toEqual(['org']);
    expect(resources(s).vcs.spec.organization).toBe('acme');
  });

  test('an organization given as a plain name (untyped callers) is refused, naming the construct and the field', () => {
    const s = stack();
    expect(() => new OAuthClient(s, 'vcs', { ...base(s), organization: 'acme' as any }))
      .toThrow(/test\/vcs: organization must be an organization \(an Organization, or Organization\.fromName\) \(got "acme"\)/);
  });

  test.each([
    [{ serviceProvider: VcsServiceProvider.PROVIDER_C_SERVER }, /test\/bad: privateKey is required for PROVIDER_C_SERVER/],
    [{ name: '' }, /name "" must not be empty/],
    [{ httpUrl: 'vcs.example.com' }, /httpUrl "vcs.example.com" must be an http\(s\) URL/],
    [{ rsaPublicKey: 'ssh-rsa' }, /rsaPublicKey needs `secret` too/],
    [{ projects: ['prj-1'] }, /test\/bad: projects\[0\] must be a project \(a Project, or Project.fromName\)/],
    [{ serviceProvider: 'bitbucket_hosted' as any }, /serviceProvider "bitbucket_hosted" must be one of/],
    [{ serviceProvider: VcsServiceProvider.ADO_SERVER }, /test\/bad: privateKey is required for ADO_SERVER/],
  ])('validation: %j', (over, message) => {
    const s = stack();
    expect(() => new OAuthClient(s, 'bad', { ...base(s), ...over } as any)).toThrow(message);
  });
});

describe('AgentPool and Agents', () => {
  test('defaults, reference to the pool id, Agents filters', () => {
    const s = stack();
    const ws2 = Workspace.fromName(s, 'ws-2', acme(s), 'two');
    const pool = new AgentPool(s, 'pool', { organization: acme(s), name: 'onprem', allowedWorkspaces: [ws2, Workspace.fromName(s, 'ws-1', acme(s), 'one')] });
    const agents = new Agents(s, 'agents', { agentPool: pool, statuses: [AgentStatus.IDLE, AgentStatus.BUSY], lastPingSince: '2024-01-01T00:00:00Z' });
    // A number attribute, fed to another construct.
    new Organization(s, 'fed-org', { name: 'fed', email: 'a@b.io', sessionTimeout: agents.count });
    const r = resources(s);
    expect(r['fed-org'].spec.sessionTimeout).toEqual({ $ref: 'agents', attr: 'count' });
    expect(r['fed-org'].dependsOn).toEqual(['agents']);
    expect(typeof agents.ids).toBe('object');
    expect(r.pool.spec).toEqual({ organization: 'acme', name: 'onprem', organizationScoped: true, allowedWorkspaces: [{ $ref: 'ws-2', attr: 'id' }, { $ref: 'ws-1', attr: 'id' }], deleteInactiveAgents: false });
    expect(r.pool.dependsOn).toEqual(['acme', 'ws-1', 'ws-2']);
    expect(() => new AgentPool(s, 'bad-ws', { organization: acme(s), name: 'x', allowedWorkspaces: ['ws-1' as any] })).toThrow(/bad-ws: allowedWorkspaces\[0\] must be a workspace/);
    expect(r.agents).toMatchObject({ kind: 'platform.Agents', dataSource: true, dependsOn: ['pool'],
      spec: { agentPoolId: { $ref: 'pool', attr: 'id' }, statuses: ['busy', 'idle'], lastPingSince: '2024-01-01T00:00:00Z' } });
  });

  test('validation', () => {
    const s = stack();
    expect(() => new AgentPool(s, 'bad', { organization: acme(s), name: 'on prem' })).toThrow(/test\/bad: name "on prem" may contain only/);
    const pool = AgentPool.fromName(s, 'pool', acme(s), 'onprem');
    expect(() => new Agents(s, 'bad2', { agentPool: pool, lastPingSince: 'yesterday' })).toThrow(/test\/bad2: lastPingSince "yesterday" is not an ISO 8601 timestamp/);
    expect(() => new Agents(s, 'bad3', { agentPool: pool, statuses: ['sleeping' as any] })).toThrow(/test\/bad3: statuses "sleeping" must be one of/);
  });
});

describe('NoCodeModule and NoCodeWorkspace', () => {
  test('a workspace follows the module version by reference; sensitive variables from SecretValues', () => {
    const s = stack();
    const mod = new NoCodeModule(s, 'mod', {
      organization: acme(s), moduleName: 'bucket', moduleProvider: 'aws', versionPin: '1.1.0',
      variableOptions: [{ variableName: 'size', variableType: 'string', options: ['s', 'l'] }, { variableName: 'region', variableType: 'string', options: ['eu'] }],
    });
    new NoCodeWorkspace(s, 'ws', {
      organization: acme(s), noCodeModule: mod, projectId: 'prj-1', name: 'bucket-prod', moduleVersion: mod.pinnedVersion,
      variables: [{ key: 'size', value: 'l' }, { key: 'TOKEN', sensitiveValue: SecretValue.fromEnv('TOKEN'), category: VariableCategory.ENV }],
    });
    const r = resources(s);
    expect(r.mod.spec).toEqual({
      organization: 'acme', moduleName: 'bucket', moduleProvider: 'aws', versionPin: '1.1.0', enabled: true,
      variableOptions: [{ variableName: 'region', variableType: 'string', options: ['eu'] }, { variableName: 'size', variableType: 'string', options: ['s', 'l'] }],
    });
    expect(r.ws.dependsOn).toEqual(['acme', 'mod']);
    expect(r.ws.spec).toEqual({
      organization: 'acme', noCodeModuleId: { $ref: 'mod', attr: 'id' }, projectId: 'prj-1', name: 'bucket-prod', description: '', autoApply: false,
      variables: [
        { key: 'size', value: 'l', category: 'engine', hcl: false, sensitive: false, description: '' },
        { key: 'TOKEN', value: { $secret: { env: 'TOKEN' } }, category: 'env', hcl: false, sensitive: true, description: '' },
      ],
      moduleVersion: { $ref: 'mod', attr: 'versionPin' }, upgradeTimeout: '10m', upgradePollInterval: '2s',
    });
  });

  test('validation', () => {
    const s = stack();
    const ws = { organization: acme(s), noCodeModule: NoCodeModule.fromRegistryModule(s, 'mod', acme(s), 'bucket', 'aws'), projectId: 'prj-1', name: 'w' };
    expect(() => new NoCodeWorkspace(s, 'bad1', { ...ws, variables: [{ key: 'a', value: 'x', sensitiveValue: SecretValue.fromEnv('A') }] })).toThrow(/either value or sensitiveValue/);
    expect(() => new NoCodeWorkspace(s, 'bad2', { ...ws, variables: [{ key: 'a' }, { key: 'a' }] })).toThrow(/"a" is given twice/);
    expect(() => new NoCodeWorkspace(s, 'bad3', { ...ws, upgradeTimeout: 'soon' })).toThrow(/upgradeTimeout "soon" is not a duration/);
    expect(() => new NoCodeWorkspace(s, 'bad4', { ...ws, projectId: 'p1' })).toThrow(/projectId "p1" is not a project id/);
    expect(() => new NoCodeWorkspace(s, 'bad5', { ...ws, noCodeModule: 'nocode-1' as any })).toThrow(/test\/bad5: noCodeModule must be a no-code module/);
    expect(() => new NoCodeWorkspace(s, 'bad6', { ...ws, variables: [{ key: 'a', category: 'tf' as any }] })).toThrow(/test\/bad6: variables\[0\]\.category "tf" must be one of "engine", "env"/);
    expect(() => new NoCodeModule(s, 'bad7', { organization: acme(s), moduleName: 'b', moduleProvider: 'aws',
      variableOptions: [{ variableName: 'x', variableType: 'string', options: [] }, { variableName: 'x', variableType: 'string', options: [] }] })).toThrow(/"x" is given twice/);
  });
});

describe('DataRetentionPolicy and ModuleProducers', () => {
  test('render and validate', () => {
    const s = stack();
    new DataRetentionPolicy(s, 'drp', { organization: acme(s), deleteOlderThanNDays: 30 });
    new DataRetentionPolicy(s, 'never', { organization: Organization.fromName(s, 'acme2', 'acme2') });
    const producers = new ModuleProducers(s, 'producers', { organization: acme(s) });
    const ents = new OrganizationEntitlements(s, 'ents', { organization: acme(s) });
    // Producers' names as the allowed values of a module variable; an entitlement limit as a number.
    new NoCodeModule(s, 'mod', { organization: acme(s), moduleName: 'm', moduleProvider: 'aws',
      variableOptions: [{ variableName: 'producer', variableType: 'string', options: producers.names }] });
    new Organization(s, 'fed', { name: 'fed', email: 'a@b.io', sessionRemember: ents.userLimit, ownersTeamSamlRoleId: ents.entitlementSetId });
    const r = resources(s);
    expect(r.mod.spec.variableOptions).toEqual([{ variableName: 'producer', variableType: 'string', options: { $ref: 'producers', attr: 'names' } }]);
    expect(r.fed.spec).toMatchObject({ sessionRemember: { $ref: 'ents', attr: 'userLimit' }, ownersTeamSamlRoleId: { $ref: 'ents', attr: 'id' } });
    expect(r.ents).toMatchObject({ kind: 'platform.OrganizationEntitlements', dataSource: true, spec: { organization: 'acme' }, dependsOn: ['acme'] });
    expect(r.drp.spec).toEqual({ organization: 'acme', deleteOlderThanNDays: 30 });
    expect(r.never.spec).toEqual({ organization: 'acme2', deleteOlderThanNDays: null });
    expect(r.producers).toMatchObject({ kind: 'platform.ModuleProducers', dataSource: true, spec: { organization: 'acme' } });
    expect(() => new DataRetentionPolicy(s, 'bad', { organization: acme(s), deleteOlderThanNDays: 0 })).toThrow(/test\/bad: deleteOlderThanNDays must be an integer from 1/);
  });
});
