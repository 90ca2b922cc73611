import fc from 'fast-check';
import { TerraformStack } from 'cdktf';
import { RemovalPolicy } from '../../../lib';
import { Organization, Team, TeamAccess, TeamAccessLevel, TeamAccessRunsPermission, TeamAccessSentinelMocksPermission, TeamAccessStateVersionsPermission, TeamAccessVariablesPermission, TeamVisibility, Workspace } from '../../../lib/platform';
import { ACME, badName, goodName, notEnum, orgNamed } from '../../reliability/prop-arbitraries';
import { countWhere, once, orgName, organization, platformGet, workspace } from '../../support/sample-world';
import { FamilySamples } from '../../support/samples';

/** The i-th managed team (of the i-th organization). */
function team(stack: TerraformStack, i: number): Team {
  return once(stack, `team${i}`, () => new Team(stack, `team${i}`, { organization: organization(stack, i), name: `team-${i}`, organizationAccess: { readWorkspaces: true } }));
}

/** The samples of the team family's kinds: see test/support/samples.ts. */
export const SAMPLES: FamilySamples = {
  'platform.Team': {
    sample: {
      weight: 5,
      build: (stack, i) => { team(stack, i); },
      count: (env, n) => countWhere(n, async (i) => ((await platformGet(env, `/organizations/${orgName(i)}/teams?filter[names]=team-${i}`))?.data ?? []).length === 1),
    },
    full: {
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
    specFields: () => [{ name: 'name' }, { name: 'visibility', default: 'secret' }, { name: 'organization-access', default: {} }],
    props: {
      base: { organization: ACME, name: 'ops' },
      optional: { visibility: TeamVisibility.ORGANIZATION, organizationAccess: { manageWorkspaces: true, readProjects: true } },
      valid: { name: goodName },
      invalid: { organization: orgNamed(badName), name: badName, visibility: notEnum },
    },
  },
  'platform.TeamAccess': {
    sample: {
      weight: 5,
      build: (stack, i) => { new TeamAccess(stack, `access${i}`, { team: team(stack, i), workspace: workspace(stack, i), access: TeamAccessLevel.PLAN }); },
      count: (env, n) => countWhere(n, async (i) => {
        const ws = await platformGet(env, `/organizations/${orgName(i)}/workspaces/ws-${i}`);
        return ws ? ((await platformGet(env, `/team-workspaces?filter[workspace][id]=${ws.data.id}`))?.data ?? []).length === 1 : false;
      }),
    },
    full: {
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
    specFields: () => [
      { name: 'access' }, { name: 'team' }, { name: 'workspace' },
      // A custom access's permissions (go-tfe's `TeamAccess`): read-only, implied by the level, for a fixed one.
      { name: 'runs' }, { name: 'variables' }, { name: 'state-versions' }, { name: 'sentinel-mocks' }, { name: 'workspace-locking' }, { name: 'run-tasks' },
    ],
    props: {
      base: { team: { teamId: 'team-1', teamName: 'ops' }, workspace: { workspaceId: 'ws-1', workspaceName: 'web' }, access: TeamAccessLevel.READ },
      invalid: {
        team: fc.constant({ teamId: 'ws-1', teamName: 'ops' }), workspace: fc.constant({ workspaceId: 'team-1', workspaceName: 'web' }), access: notEnum,
      },
    },
  },
};
