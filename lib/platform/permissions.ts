/**
 * What the platform token needs for each kind through plan, apply and destroy, as text for
 * `converge policy` (the platform grants permissions through teams and token kinds, not a policy document).
 */
export const PLATFORM_PERMISSIONS: Record<string, (spec: Record<string, unknown>) => string> = {
  'platform.Organization': (s) => `create organizations (any user on the hosted edition, a site administrator on self-hosted); owners team of "${String(s.name)}" to update and destroy it`,
  'platform.OAuthClient': (s) => `manage VCS settings in organization "${String(s.organization)}"`,
  'platform.AgentPool': (s) => `manage agent pools in organization "${String(s.organization)}" (the agents entitlement)`,
  'platform.NoCodeModule': (s) => `manage modules of the private registry of "${String(s.organization)}"; a user or team token (organization tokens are refused on no-code endpoints)`,
  'platform.NoCodeWorkspace': (s) => `create workspaces in project ${typeof s.projectId === 'string' ? s.projectId : '(its project)'} of "${String(s.organization)}", read and write their variables, queue and apply runs (upgrades); a user or team token`,
  'platform.DataRetentionPolicy': (s) => `owners team of "${String(s.organization)}" on the self-hosted edition`,
  'platform.OrganizationEntitlements': (s) => `read organization "${String(s.organization ?? s.name)}"`,
  'platform.Agents': () => 'read the agent pool (the agents entitlement)',
  'platform.ModuleProducers': (s) => `read organization "${String(s.organization)}" (self-hosted edition)`,
  'platform.Project': (s) => `create and manage projects in organization "${String(s.organization)}"`,
  'platform.Workspace': (s) => `create workspaces in organization "${String(s.organization)}" (and in its project ${typeof s.projectId === 'string' ? s.projectId : '(the default project)'}), manage their settings and tags`,
  'platform.Variable': (s) => `read and write the variables of workspace ${String(s.workspace)}`,
  'platform.Team': (s) => `owners team of "${String(s.organization)}" (manage teams and their organization access)`,
  'platform.TeamAccess': (s) => `admin access to workspace ${String(s.workspaceId)} (manage its team access), and read team ${String(s.teamId)}`,
  'platform.VariableSet': (s) => `manage variable sets of organization "${String(s.organization)}"`,
  // Lookups (`Organization.fromName`, …): read at plan time by the id `converge import` takes.
  'lookup:platform.Organization': (s) => `read organization "${String(s.id)}"`,
  'lookup:platform.OAuthClient': (s) => `read OAuth client ${String(s.id)} (manage VCS settings in its organization)`,
  'lookup:platform.AgentPool': (s) => `read the agent pools of organization "${String(s.id).split('/')[0]}" (the agents entitlement)`,
  'lookup:platform.Project': (s) => `read the projects of organization "${String(s.id).split('/')[0]}"`,
  'lookup:platform.Workspace': (s) => `read workspace "${String(s.id)}"`,
  'lookup:platform.Team': (s) => `read the teams of organization "${String(s.id).split('/')[0]}"`,
  'lookup:platform.NoCodeModule': (s) => `read the private registry and no-code modules of organization "${String(s.id).split('/')[0]}"; a user or team token`,
};

/** A kind's writes need this `permissions` key of the organization they write in (its `permissions` attribute). */
export interface OrganizationPermission {
  readonly organization: string;
  readonly permission: string;
}

/** The organization named by a spec field, when it is known at plan time (not a reference to one this apply creates). */
function named(v: unknown): string | undefined {
  return typeof v === 'string' && !v.startsWith('${') ? v : undefined;
}

/**
 * What the preflight asks of the organization's `permissions` for each kind's writes: the same
 * permissions as the text above, as the platform reports them. An organization being created has
 * none to ask (its creator owns it).
 */
export const PLATFORM_ORGANIZATION_PERMISSIONS: Record<string, (spec: Record<string, unknown>, deletes: boolean, creates: boolean) => OrganizationPermission[]> = {
  'platform.Organization': (s, deletes, creates) => (creates || !named(s.name) ? [] : [{ organization: String(s.name), permission: deletes ? 'can-destroy' : 'can-update' }]),
  'platform.OAuthClient': (s) => org(s, 'can-update-oauth'),
  'platform.AgentPool': (s) => org(s, 'can-update-agent-pools'),
  'platform.NoCodeModule': (s) => org(s, 'can-create-module'),
  'platform.NoCodeWorkspace': (s) => org(s, 'can-create-workspace'),
  'platform.DataRetentionPolicy': (s) => org(s, 'can-update'),
  'platform.Project': (s) => org(s, 'can-create-project'),
  'platform.Workspace': (s) => org(s, 'can-create-workspace'),
  'platform.Team': (s) => org(s, 'can-create-team'),
  'platform.VariableSet': (s) => org(s, 'can-manage-varsets'),
};

function org(s: Record<string, unknown>, permission: string): OrganizationPermission[] {
  const organization = named(s.organization);
  return organization ? [{ organization, permission }] : [];
}
