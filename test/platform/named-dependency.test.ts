import { App, TerraformStack } from 'cdktf';
import { ConvergeTesting, SecretValue } from '../../lib';
import { AgentPool } from '../../lib/platform/agent-pool/agent-pool';
import { OAuthClient, VcsServiceProvider } from '../../lib/platform/oauth-client/oauth-client';
import { Organization } from '../../lib/platform/organization/organization';

// Naming an organization by its name orders the construct after the Organization construct of that name.
test('constructs that name an organization depend on it, without an explicit dependency', () => {
  const stack = new TerraformStack(new App(), 'named');
  const pool = new AgentPool(stack, 'pool', { organization: 'acme', name: 'onprem' });
  new OAuthClient(stack, 'vcs', {
    organization: 'acme', name: 'vcs', serviceProvider: VcsServiceProvider.PROVIDER_A, key: 'k',
    httpUrl: 'https://vcs.example.com', apiUrl: 'https://api.vcs.example.com', oauthToken: SecretValue.fromEnv('T'),
  });
  new AgentPool(stack, 'other', { organization: 'elsewhere', name: 'p' });
  new Organization(stack, 'org', { name: 'acme', email: 'ops@acme.io' });
  const desired = ConvergeTesting.desiredState(stack);
  expect(desired.resources.pool.dependsOn).toEqual(['org']);
  expect(desired.resources.vcs.dependsOn).toEqual(['org']);
  expect(desired.resources.other.dependsOn).toEqual([]);
  expect(pool.name).toBe('onprem');
});
