import { App, TerraformStack } from 'cdktf';
import { ConvergeTesting, SecretValue } from '../../lib';
import { AgentPool } from '../../lib/platform/agent-pool/agent-pool';
import { Agents } from '../../lib/platform/agent-pool/agents';
import { NoCodeModule } from '../../lib/platform/no-code/no-code-module';
import { NoCodeWorkspace } from '../../lib/platform/no-code/no-code-workspace';
import { OAuthClient, VcsServiceProvider } from '../../lib/platform/oauth-client/oauth-client';
import { Organization } from '../../lib/platform/organization/organization';

// A construct that references another platform object by its interface depends on it: a managed
// object is applied first, a lookup read first; the spec holds the object's name or id.
test('constructs depend on the organization, pool and module they reference, managed or looked up', () => {
  const stack = new TerraformStack(new App(), 'refs');
  const org = new Organization(stack, 'org', { name: 'acme', email: 'ops@acme.io' });
  const elsewhere = Organization.fromName(stack, 'elsewhere', 'elsewhere');
  const pool = new AgentPool(stack, 'pool', { organization: org, name: 'onprem' });
  new OAuthClient(stack, 'vcs', {
    organization: org, name: 'vcs', serviceProvider: VcsServiceProvider.PROVIDER_A, key: 'k',
    httpUrl: 'https://vcs.example.com', apiUrl: 'https://api.vcs.example.com', oauthToken: SecretValue.fromEnv('T'),
  });
  new AgentPool(stack, 'other', { organization: elsewhere, name: 'p' });
  new Agents(stack, 'agents', { agentPool: AgentPool.fromName(stack, 'found-pool', elsewhere, 'p') });
  const mod = NoCodeModule.fromRegistryModule(stack, 'mod', elsewhere, 'bucket', 'aws');
  new NoCodeWorkspace(stack, 'ws', { organization: elsewhere, noCodeModule: mod, projectId: 'prj-1', name: 'w' });
  const r = ConvergeTesting.desiredState(stack).resources;
  expect(r.pool.dependsOn).toEqual(['org']);
  expect(r.vcs.dependsOn).toEqual(['org']);
  expect(r.other.dependsOn).toEqual(['elsewhere']);
  expect(r.agents.dependsOn).toEqual(['found-pool']);
  expect(r.ws.dependsOn).toEqual(['elsewhere', 'mod']);
  // The lookups: the id `converge import` takes for each kind.
  expect(r['found-pool']).toMatchObject({ kind: 'lookup:platform.AgentPool', dataSource: true, spec: { id: 'elsewhere/p' } });
  expect(r.mod).toMatchObject({ kind: 'lookup:platform.NoCodeModule', dataSource: true, spec: { id: 'elsewhere/bucket/aws' } });
  expect(r.ws.spec).toMatchObject({ organization: 'elsewhere', noCodeModuleId: { $ref: 'mod', attr: 'id' } });
  expect(r.agents.spec).toMatchObject({ agentPoolId: { $ref: 'found-pool', attr: 'id' } });
  expect(pool.name).toBe('onprem');
});
