import { TerraformStack } from 'cdktf';
import { RemovalPolicy } from '../../lib/core/constructs/removal-policy';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import { AgentPool } from '../../lib/platform/agent-pool/agent-pool';
import { NoCodeModule } from '../../lib/platform/no-code/no-code-module';
import { NoCodeWorkspace, VariableCategory } from '../../lib/platform/no-code/no-code-workspace';
import { OAuthClient, VcsServiceProvider } from '../../lib/platform/oauth-client/oauth-client';
import { DataRetentionPolicy } from '../../lib/platform/organization/data-retention-policy';
import { ExecutionMode, IOrganization, Organization } from '../../lib/platform/organization/organization';
import { Project } from '../../lib/platform/project/project';
import { Team, TeamVisibility } from '../../lib/platform/team/team';
import {
  TeamAccess, TeamAccessLevel, TeamAccessRunsPermission, TeamAccessSentinelMocksPermission, TeamAccessStateVersionsPermission, TeamAccessVariablesPermission,
} from '../../lib/platform/team/team-access';
import { Variable } from '../../lib/platform/variable/variable';
import { VariableSet } from '../../lib/platform/variable-set/variable-set';
import { Workspace } from '../../lib/platform/workspace/workspace';
import { FullSample, SampleWorld } from './full-samples';

/** The organization the OAuth client and no-code samples live in: seeded, with a project and two registry modules. */
const SEEDED = 'full-platform';
/** The seeded project's id, known once seeded (before the app is synthesized). */
let projectId = 'prj-unseeded';

/** What the OAuth client's write-only fields read (never written into the app). */
const ENV = { FULL_SAMPLE_SECRET: 'full-sample-secret-5d1c' };

async function send(world: SampleWorld, path: string, method: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const res = await fetch(`${world.env.PLATFORM_ADDRESS}${path}`, {
    method, headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body),
  });
  if (!res.ok && res.status !== 422) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json().catch(() => ({}));
}

/** Seeds the organization, its project and its registry modules once per world. */
const seeded = new WeakMap<object, Promise<void>>();
function seed(world: SampleWorld): Promise<void> {
  if (!seeded.has(world)) {
    seeded.set(world, (async () => {
      await send(world, '/api/v2/organizations', 'POST', { data: { type: 'organizations', attributes: { name: SEEDED, email: 'full@acme.io' } } },
        { 'content-type': 'application/vnd.api+json' });
      projectId = (await send(world, `/__admin/organizations/${SEEDED}/projects`, 'POST', { name: 'full' })).id;
      for (const name of ['options', 'bucket']) {
        await send(world, `/__admin/organizations/${SEEDED}/registry-modules`, 'POST', { name, provider: 'aws', versions: ['1.0.0', '1.1.0'] });
      }
    })());
  }
  return seeded.get(world)!;
}

function seededOrganization(stack: TerraformStack): IOrganization {
  return (stack.node.tryFindChild('full-platform-org') as IOrganization | undefined) ?? Organization.fromName(stack, 'full-platform-org', SEEDED);
}

/** A full sample of each platform kind. */
export const PLATFORM_FULL_SAMPLES: Record<string, FullSample> = {
  'platform.Organization': {
    address: 'full-organization',
    build: (stack) => {
      new Organization(stack, 'full-organization', {
        name: 'full-org', email: 'full@acme.io', sessionTimeout: 60, sessionRemember: 120, collaboratorAuthPolicy: 'two_factor_mandatory' as any,
        costEstimationEnabled: true, sendPassingStatusesForUntriggeredSpeculativePlans: true, aggregatedCommitStatusEnabled: false,
        ownersTeamSamlRoleId: 'owners', assessmentsEnforced: true, allowForceDeleteWorkspaces: true, defaultExecutionMode: 'local' as any,
      });
    },
    defaultsKept: { defaultAgentPoolId: 'only with the agent mode, which needs a pool of the organization (AgentPool covers the reference)' },
  },
  'platform.OAuthClient': {
    address: 'full-oauth-client',
    seed,
    env: ENV,
    build: (stack) => {
      new OAuthClient(stack, 'full-oauth-client', {
        organization: seededOrganization(stack), name: 'full-vcs', serviceProvider: VcsServiceProvider.PROVIDER_C_SERVER, key: 'full-key',
        httpUrl: 'https://vcs.full.example.com', apiUrl: 'https://api.vcs.full.example.com', oauthToken: SecretValue.fromEnv('FULL_SAMPLE_SECRET'),
        privateKey: SecretValue.fromEnv('FULL_SAMPLE_SECRET'), secret: SecretValue.fromEnv('FULL_SAMPLE_SECRET'), rsaPublicKey: 'ssh-rsa AAAAfull',
        organizationScoped: false, projects: [Project.fromName(stack, 'full-oauth-project', seededOrganization(stack), 'full')],
      });
    },
  },
  'platform.Project': {
    address: 'full-project',
    build: (stack) => {
      const org = new Organization(stack, 'full-project-org', { name: 'full-project-org', email: 'full@acme.io', removalPolicy: RemovalPolicy.DESTROY });
      new Project(stack, 'full-project', { organization: org, name: 'full apps', description: 'every field' });
    },
  },
  'platform.Workspace': {
    address: 'full-workspace',
    build: (stack) => {
      const org = new Organization(stack, 'full-ws-org', { name: 'full-ws-org', email: 'full@acme.io', removalPolicy: RemovalPolicy.DESTROY });
      const project = new Project(stack, 'full-ws-project', { organization: org, name: 'full-ws' });
      new Workspace(stack, 'full-workspace', {
        organization: org, name: 'full-ws', description: 'every field', project, executionMode: ExecutionMode.LOCAL, terraformVersion: '1.9.5',
        workingDirectory: 'infra', autoApply: true, tags: ['full', 'team:ops'],
      });
    },
    defaultsKept: { agentPoolId: 'only with the agent mode, which needs a pool (the organization\'s one pool is the AgentPool sample\'s)' },
  },
  'platform.Variable': {
    address: 'full-variable',
    env: ENV,
    build: (stack) => {
      const org = new Organization(stack, 'full-var-org', { name: 'full-var-org', email: 'full@acme.io', removalPolicy: RemovalPolicy.DESTROY });
      const workspace = new Workspace(stack, 'full-var-ws', { organization: org, name: 'full-var-ws' });
      new Variable(stack, 'full-variable', { workspace, key: 'TOKEN', description: 'every field', category: VariableCategory.ENV, sensitiveValue: SecretValue.fromEnv('FULL_SAMPLE_SECRET') });
    },
    defaultsKept: {
      value: 'a sensitive variable (sensitiveValue) has no plain value', hcl: 'HCL is for input variables; this one is an environment variable (and sensitive)',
      variableSet: 'a variable is of a workspace or of a variable set, not both: a set\'s (test/platform/variable-set-variable.e2e.test.ts)',
    },
  },
  'platform.Team': {
    address: 'full-team',
    build: (stack) => {
      const org = new Organization(stack, 'full-team-org', { name: 'full-team-org', email: 'full@acme.io', removalPolicy: RemovalPolicy.DESTROY });
      new Team(stack, 'full-team', {
        organization: org, name: 'full-team', visibility: TeamVisibility.ORGANIZATION,
        organizationAccess: {
          managePolicies: true, managePolicyOverrides: true, manageWorkspaces: true, manageVcsSettings: true, manageProviders: true, manageModules: true,
          manageRunTasks: true, manageProjects: true, readWorkspaces: true, readProjects: true, manageMembership: true, manageTeams: true,
          manageOrganizationAccess: true, accessSecretTeams: true, manageAgentPools: true,
        },
      });
    },
  },
  'platform.TeamAccess': {
    address: 'full-team-access',
    build: (stack) => {
      const org = new Organization(stack, 'full-access-org', { name: 'full-access-org', email: 'full@acme.io', removalPolicy: RemovalPolicy.DESTROY });
      const team = new Team(stack, 'full-access-team', { organization: org, name: 'full-access-team' });
      const workspace = new Workspace(stack, 'full-access-ws', { organization: org, name: 'full-access-ws' });
      // Every prop: a custom access with each permission away from its default.
      new TeamAccess(stack, 'full-team-access', {
        team, workspace, access: TeamAccessLevel.CUSTOM,
        permissions: {
          runs: TeamAccessRunsPermission.APPLY, variables: TeamAccessVariablesPermission.WRITE, stateVersions: TeamAccessStateVersionsPermission.READ,
          sentinelMocks: TeamAccessSentinelMocksPermission.READ, workspaceLocking: true, runTasks: true,
        },
      });
    },
  },
  'platform.VariableSet': {
    address: 'full-variable-set',
    build: (stack) => {
      const org = new Organization(stack, 'full-varset-org', { name: 'full-varset-org', email: 'full@acme.io', removalPolicy: RemovalPolicy.DESTROY });
      const project = new Project(stack, 'full-varset-project', { organization: org, name: 'full-varset' });
      const workspace = new Workspace(stack, 'full-varset-ws', { organization: org, name: 'full-varset-ws' });
      new VariableSet(stack, 'full-variable-set', { organization: org, name: 'full set', description: 'every field', priority: true, workspaces: [workspace], projects: [project] });
    },
    defaultsKept: { global: 'a global set applies to every workspace and takes no workspaces nor projects (those are set here)' },
  },
  'platform.AgentPool': {
    address: 'full-agent-pool',
    build: (stack) => {
      const org = new Organization(stack, 'full-pool-org', { name: 'full-pool-org', email: 'full@acme.io', removalPolicy: RemovalPolicy.DESTROY });
      new AgentPool(stack, 'full-agent-pool', { organization: org, name: 'full-pool', organizationScoped: false, allowedWorkspaces: [], deleteInactiveAgents: true });
    },
    defaultsKept: { allowedWorkspaces: 'a workspace is not a converge object: none exists in an organization created by the same apply' },
  },
  'platform.NoCodeModule': {
    address: 'full-no-code-module',
    seed,
    build: (stack) => {
      new NoCodeModule(stack, 'full-no-code-module', {
        organization: seededOrganization(stack), moduleName: 'options', moduleProvider: 'aws', versionPin: '1.0.0', enabled: false,
        variableOptions: [{ variableName: 'size', variableType: 'string', options: ['s', 'm'] }, { variableName: 'region', variableType: 'string', options: ['eu'] }],
      });
    },
  },
  'platform.NoCodeWorkspace': {
    address: 'full-no-code-workspace',
    seed,
    build: (stack) => {
      const org = seededOrganization(stack);
      const mod = new NoCodeModule(stack, 'full-workspace-module', { organization: org, moduleName: 'bucket', moduleProvider: 'aws', versionPin: '1.1.0' });
      new NoCodeWorkspace(stack, 'full-no-code-workspace', {
        organization: org, noCodeModule: mod, projectId, name: 'full-workspace', description: 'every field', autoApply: true,
        variables: [{ key: 'region', value: 'eu-west-1', category: VariableCategory.ENV, hcl: true, description: 'where' }],
        moduleVersion: mod.pinnedVersion, upgradeTimeout: '5m', upgradePollInterval: '1s',
      });
    },
  },
  'platform.DataRetentionPolicy': {
    address: 'full-data-retention-policy',
    selfHosted: true,
    build: (stack) => {
      const org = new Organization(stack, 'full-retention-org', { name: 'full-retention-org', email: 'full@acme.io', removalPolicy: RemovalPolicy.DESTROY });
      new DataRetentionPolicy(stack, 'full-data-retention-policy', { organization: org, deleteOlderThanNDays: 30 });
    },
  },
};
