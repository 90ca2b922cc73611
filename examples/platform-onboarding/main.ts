// Onboarding a team on the platform, in two stacks applied one after the other:
// - `team-org`: the team's organization, its VCS connection and its agent pool;
// - `team-workspaces`: once the team's module is published in the organization's private registry (from the VCS
//   connection) and its project exists, the module made available for no-code provisioning and a workspace built
//   from it. This stack joins the app when TEAM_PROJECT_ID names the project.
import { App, TerraformStack } from 'cdktf';
import { platform, SecretValue } from 'cdk-converge';

const orgName = process.env.TEAM_ORG ?? 'payments-team';
const projectId = process.env.TEAM_PROJECT_ID;

const app = new App();

const orgStack = new TerraformStack(app, 'team-org');

// Organizations are retained by default: destroying the stack forgets the organization, it never deletes its data.
const org = new platform.Organization(orgStack, 'org', {
  name: orgName,
  email: 'payments-team@acme.example',
  collaboratorAuthPolicy: platform.CollaboratorAuthPolicy.TWO_FACTOR_MANDATORY,
  costEstimationEnabled: true,
});

// The VCS connection: the OAuth token comes from the environment when converge runs; it is never synthesized,
// and state keeps only its HMAC.
new platform.OAuthClient(orgStack, 'vcs', {
  organization: org,
  name: 'acme-vcs',
  serviceProvider: platform.VcsServiceProvider.PROVIDER_A,
  key: 'payments-team-oauth-app',
  httpUrl: 'https://vcs.acme.example',
  apiUrl: 'https://api.vcs.acme.example',
  oauthToken: SecretValue.fromEnv('TEAM_VCS_TOKEN'),
});

// Self-hosted agents for runs that must reach the team's private network; agents that went away are cleaned up.
// Referencing the organization orders the pool (and the VCS connection) after it.
new platform.AgentPool(orgStack, 'agents', {
  organization: org,
  name: 'payments-onprem',
  deleteInactiveAgents: true,
});

if (projectId) {
  const wsStack = new TerraformStack(app, 'team-workspaces');
  // The organization of the other stack, looked up (read at plan time; the plan fails clearly when it is absent).
  const teamOrg = platform.Organization.fromName(wsStack, 'org', orgName);

  // The registry module `storage-bucket` (provider `aws`), published with versions 1.0.0 and 1.1.0,
  // offered for no-code provisioning at 1.1.0 with three sizes to choose from.
  const mod = new platform.NoCodeModule(wsStack, 'bucket-module', {
    organization: teamOrg,
    moduleName: 'storage-bucket',
    moduleProvider: 'aws',
    versionPin: '1.1.0',
    variableOptions: [{ variableName: 'size', variableType: 'string', options: ['small', 'medium', 'large'] }],
  });

  // A workspace built from the module; when the module's pin moves, apply upgrades it.
  new platform.NoCodeWorkspace(wsStack, 'assets-bucket', {
    organization: teamOrg,
    noCodeModule: mod,
    moduleVersion: mod.pinnedVersion,
    projectId,
    name: 'payments-assets',
    description: 'Static assets of the payments front end',
    autoApply: true,
    variables: [
      { key: 'size', value: 'small' },
      { key: 'bucket_name', value: 'acme-payments-assets' },
    ],
  });
}

app.synth();
