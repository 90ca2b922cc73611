import { App, TerraformStack } from 'cdktf';
import { ConvergeTesting } from '../../lib/core/constructs/testing';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import {
  AgentPool, Agents, AgentStatus, DataRetentionPolicy, ModuleProducers, NoCodeModule, NoCodeWorkspace, OAuthClient, Organization,
  VariableCategory, VcsServiceProvider,
} from '../../lib/platform';
import { camelCase } from '../../lib/platform/client/jsonapi';
import { OAUTH_CLIENT_CREATE_BODY } from './spec-resources';

function stack(): TerraformStack {
  return new TerraformStack(new App(), 'test');
}
const resources = (s: TerraformStack) => ConvergeTesting.desiredState(s).resources;

describe('OAuthClient', () => {
  const base = {
    organization: 'acme', name: 'main', serviceProvider: VcsServiceProvider.PROVIDER_A, key: 'k',
    httpUrl: 'https://vcs.example.com', apiUrl: 'https://api.vcs.example.com', oauthToken: SecretValue.fromEnv('VCS_TOKEN'),
  };

  test('renders every create attribute of the spec with its default; secrets as their source only', () => {
    const s = stack();
    const c = new OAuthClient(s, 'vcs', { ...base, projects: ['prj-b', 'prj-a'] });
    const r = resources(s).vcs;
    expect(r.kind).toBe('platform.OAuthClient');
    // Every body attribute of the spec has a spec key (the token string as `oauthToken`).
    for (const row of OAUTH_CLIENT_CREATE_BODY.filter((b) => b.key.startsWith('data.attributes.'))) {
      const key = camelCase(row.key.replace('data.attributes.', '')).replace('oauthTokenString', 'oauthToken');
      expect(Object.keys(r.spec)).toContain(key);
    }
    expect(r.spec).toMatchObject({ organizationScoped: true, projects: ['prj-a', 'prj-b'], privateKey: null, secret: null, rsaPublicKey: null });
    expect(r.spec.oauthToken).toEqual({ $secret: { env: 'VCS_TOKEN' } });
    expect(c.oauthClientId).toMatchObject({ $ref: 'vcs', attr: 'id' });
    expect(c.oauthTokenId).toMatchObject({ $ref: 'vcs', attr: 'oauthTokenId' });
  });

  test('references the organization by name and depends on it', () => {
    const s = stack();
    const org = new Organization(s, 'org', { name: 'acme', email: 'a@b.io' });
    const c = new OAuthClient(s, 'vcs', { ...base, organization: org.name });
    c.node.addDependency(org);
    expect(resources(s).vcs.dependsOn).toEqual(['org']);
  });

  test.each([
    [{ serviceProvider: VcsServiceProvider.PROVIDER_C_SERVER }, /test\/bad: privateKey is required for PROVIDER_C_SERVER/],
    [{ name: '' }, /name must be a non-empty string when given/],
    [{ httpUrl: 'vcs.example.com' }, /httpUrl "vcs.example.com" must be an http\(s\) URL/],
    [{ rsaPublicKey: 'ssh-rsa' }, /rsaPublicKey needs `secret` too/],
    [{ projects: ['ws-1'] }, /projects "ws-1" is not a project id/],
    [{ serviceProvider: 'github' as any }, /serviceProvider "github" must be one of/],
  ])('validation: %j', (over, message) => {
    expect(() => new OAuthClient(stack(), 'bad', { ...base, ...over } as any)).toThrow(message);
  });
});

describe('AgentPool and Agents', () => {
  test('defaults, reference to the pool id, Agents filters', () => {
    const s = stack();
    const pool = new AgentPool(s, 'pool', { organization: 'acme', name: 'onprem', allowedWorkspaces: ['ws-2', 'ws-1'] });
    new Agents(s, 'agents', { agentPoolId: pool.agentPoolId, statuses: [AgentStatus.IDLE, AgentStatus.BUSY], lastPingSince: '2024-01-01T00:00:00Z' });
    const r = resources(s);
    expect(r.pool.spec).toEqual({ organization: 'acme', name: 'onprem', organizationScoped: true, allowedWorkspaces: ['ws-1', 'ws-2'], deleteInactiveAgents: false });
    expect(r.agents).toMatchObject({ kind: 'platform.Agents', dataSource: true, dependsOn: ['pool'],
      spec: { agentPoolId: { $ref: 'pool', attr: 'id' }, statuses: ['busy', 'idle'], lastPingSince: '2024-01-01T00:00:00Z' } });
  });

  test('validation', () => {
    expect(() => new AgentPool(stack(), 'bad', { organization: 'acme', name: 'on prem' })).toThrow(/test\/bad: name "on prem" may contain only/);
    expect(() => new Agents(stack(), 'bad', { agentPoolId: 'apool-1', lastPingSince: 'yesterday' })).toThrow(/lastPingSince "yesterday"/);
  });
});

describe('NoCodeModule and NoCodeWorkspace', () => {
  test('a workspace follows the module version by reference; sensitive variables from SecretValues', () => {
    const s = stack();
    const mod = new NoCodeModule(s, 'mod', {
      organization: 'acme', moduleName: 'bucket', moduleProvider: 'aws', versionPin: '1.1.0',
      variableOptions: [{ variableName: 'size', variableType: 'string', options: ['s', 'l'] }, { variableName: 'region', variableType: 'string', options: ['eu'] }],
    });
    new NoCodeWorkspace(s, 'ws', {
      organization: 'acme', noCodeModuleId: mod.noCodeModuleId, projectId: 'prj-1', name: 'bucket-prod', moduleVersion: mod.pinnedVersion,
      variables: [{ key: 'size', value: 'l' }, { key: 'TOKEN', sensitiveValue: SecretValue.fromEnv('TOKEN'), category: VariableCategory.ENV }],
    });
    const r = resources(s);
    expect(r.mod.spec).toEqual({
      organization: 'acme', moduleName: 'bucket', moduleProvider: 'aws', versionPin: '1.1.0', enabled: true,
      variableOptions: [{ variableName: 'region', variableType: 'string', options: ['eu'] }, { variableName: 'size', variableType: 'string', options: ['s', 'l'] }],
    });
    expect(r.ws.dependsOn).toEqual(['mod']);
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
    const ws = { organization: 'acme', noCodeModuleId: 'nocode-1', projectId: 'prj-1', name: 'w' };
    expect(() => new NoCodeWorkspace(stack(), 'bad', { ...ws, variables: [{ key: 'a', value: 'x', sensitiveValue: SecretValue.fromEnv('A') }] })).toThrow(/either value or sensitiveValue/);
    expect(() => new NoCodeWorkspace(stack(), 'bad', { ...ws, variables: [{ key: 'a' }, { key: 'a' }] })).toThrow(/"a" is given twice/);
    expect(() => new NoCodeWorkspace(stack(), 'bad', { ...ws, upgradeTimeout: 'soon' })).toThrow(/upgradeTimeout "soon" is not a duration/);
    expect(() => new NoCodeWorkspace(stack(), 'bad', { ...ws, projectId: 'p1' })).toThrow(/projectId "p1" is not a project id/);
    expect(() => new NoCodeModule(stack(), 'bad', { organization: 'acme', moduleName: 'b', moduleProvider: 'aws',
      variableOptions: [{ variableName: 'x', variableType: 'string', options: [] }, { variableName: 'x', variableType: 'string', options: [] }] })).toThrow(/"x" is given twice/);
  });
});

describe('DataRetentionPolicy and ModuleProducers', () => {
  test('render and validate', () => {
    const s = stack();
    new DataRetentionPolicy(s, 'drp', { organization: 'acme', deleteOlderThanNDays: 30 });
    new DataRetentionPolicy(s, 'never', { organization: 'acme2' });
    new ModuleProducers(s, 'producers', { organization: 'acme' });
    const r = resources(s);
    expect(r.drp.spec).toEqual({ organization: 'acme', deleteOlderThanNDays: 30 });
    expect(r.never.spec).toEqual({ organization: 'acme2', deleteOlderThanNDays: null });
    expect(r.producers).toMatchObject({ kind: 'platform.ModuleProducers', dataSource: true, spec: { organization: 'acme' } });
    expect(() => new DataRetentionPolicy(stack(), 'bad', { organization: 'acme', deleteOlderThanNDays: 0 })).toThrow(/deleteOlderThanNDays must be an integer from 1/);
  });
});
