/**
 * The platform emulator's state: plain JSON so that `snapshot()`/`restore()` are a copy.
 * Tokens are kept as SHA-256 digests, never in clear (the snapshot is written to disk).
 */

export type Edition = 'hosted' | 'self-hosted';
export type TokenKind = 'user' | 'team' | 'organization';

export interface UserRecord {
  readonly id: string;
  readonly username: string;
  readonly email: string;
  /** May create organizations. */
  readonly admin: boolean;
}

export interface TokenRecord {
  readonly id: string;
  readonly kind: TokenKind;
  /** Every token is bound to a user: the rate limit is per user, shared by the user's tokens. */
  readonly userId: string;
  /** Organization external id, for team and organization tokens. */
  readonly organizationId?: string;
  /**
   * What a team token may do in its organization (`manage-vcs`, `manage-agent-pools`, `manage-modules`,
   * `create-workspaces`); without any, a team token only reads. User tokens of owners and organization
   * tokens may do everything (organization tokens are still refused on the no-code endpoints).
   */
  readonly permissions?: string[];
  /** The team of a team token (`team-…`), when it was issued for one. */
  readonly teamId?: string;
}

/** A team of an organization (only what team tokens need: the organization a team id belongs to). */
export interface TeamRecord {
  readonly id: string;
  name: string;
  readonly organizationId: string;
  /** `secret` (absent) or `organization`. */
  visibility?: string;
  /** go-tfe's organization access keys (kebab-case) granted; absent ones are false. */
  organizationAccess?: Record<string, boolean>;
}

/** A variable set (`varset-…`) and what it applies to. */
export interface VariableSetRecord {
  readonly id: string;
  readonly organizationId: string;
  name: string;
  description: string;
  global: boolean;
  priority: boolean;
  workspaces: string[];
  projects: string[];
  /** The set's own variables (absent in data written before they were served). */
  vars?: VarRecord[];
}

/** A team's access to a workspace (`tws-…`). */
export interface TeamAccessRecord {
  readonly id: string;
  readonly teamId: string;
  readonly workspaceId: string;
  access: string;
  /** A custom access's permissions by attribute name (`runs`, `state-versions`, …); a fixed level implies its own. */
  permissions?: Record<string, string | boolean>;
}

export interface OrganizationRecord {
  /** The organization external id `org-…` (the name is the API id and may change). */
  readonly externalId: string;
  name: string;
  createdAt: string;
  /** Kebab-case attributes as the API stores them (request attributes with their defaults). */
  attributes: Record<string, unknown>;
  /** Users who own the organization (full permissions). */
  owners: string[];
  /** Entitlement-set attributes, kebab-case. */
  entitlements: Record<string, boolean | number | null>;
}

export interface AgentPoolRecord {
  readonly id: string;
  name: string;
  /** Organization external id. */
  organizationId: string;
  createdAt: string;
  organizationScoped: boolean;
  /** Workspace ids permitted to use the pool. */
  allowedWorkspaces?: string[];
}

export type AgentStatus = 'idle' | 'busy' | 'exited' | 'errored' | 'unknown';

export interface AgentRecord {
  readonly id: string;
  readonly poolId: string;
  name: string | null;
  status: AgentStatus;
  ipAddress: string;
  lastPingAt: string;
}

export interface ProjectRecord {
  readonly id: string;
  name: string;
  readonly organizationId: string;
  description?: string;
}

export interface VarRecord {
  /** `var-…`; absent for the variables of a no-code workspace (their id is derived from workspace, category and key). */
  readonly id?: string;
  key: string;
  /** Empty for a sensitive variable is never returned; the value is kept (the emulator is no vault). */
  value: string;
  description: string;
  category: 'engine' | 'env';
  hcl: boolean;
  sensitive: boolean;
}

export interface WorkspaceRecord {
  readonly id: string;
  name: string;
  readonly organizationId: string;
  projectId: string;
  createdAt: string;
  updatedAt: string;
  description: string;
  autoApply: boolean;
  agentPoolId: string | null;
  /** Set by the workspace endpoints; absent: `agent` with a pool, else `remote`. */
  executionMode?: string;
  /** The Terraform version (the spec's `engine-version`); absent: the platform's default. */
  engineVersion?: string;
  /** Absent: null (no-code workspaces). */
  workingDirectory?: string;
  tagNames?: string[];
  /** Set for workspaces created from a no-code module. */
  noCodeModuleId?: string;
  /** The module version the workspace runs (no-code workspaces). */
  moduleVersion?: string;
  /** `nocodever-…`, changes whenever the workspace moves to another version. */
  noCodeModuleVersionId?: string;
  vars: VarRecord[];
}

/** OAuth client; the request-only secrets are kept as SHA-256 digests (the snapshot is written to disk). */
export interface OAuthClientRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly createdAt: string;
  readonly serviceProvider: string;
  name: string | null;
  key: string | null;
  readonly httpUrl: string;
  readonly apiUrl: string;
  rsaPublicKey: string | null;
  organizationScoped: boolean;
  projects: string[];
  readonly oauthTokenId: string;
  readonly digests: Record<string, string>;
}

export interface RegistryModuleVersion {
  readonly version: string;
  /** A plan of this version fails (to test upgrade failures). */
  failing?: boolean;
}

export interface RegistryModuleRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  readonly provider: string;
  versions: RegistryModuleVersion[];
  /** Meets the no-code design requirements (a single provider block, no nested modules…). */
  noCodeReady: boolean;
}

export interface NoCodeModuleRecord {
  readonly id: string;
  readonly organizationId: string;
  registryModuleId: string;
  enabled: boolean;
  versionPin: string;
  variableOptionIds: string[];
}

export interface VariableOptionsRecord {
  readonly id: string;
  readonly noCodeModuleId: string;
  variableName: string;
  variableType: string;
  options: unknown[];
}

/** A workspace upgrade run; its status follows from the time elapsed since `startedAt`. */
export interface UpgradeRunRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly noCodeModuleId: string;
  readonly startedAt: number;
  readonly targetVersion: string;
  readonly vars: VarRecord[];
  /** `changes` ends planned (or cost_estimated), `none` planned_and_finished, `error` errored. */
  readonly outcome: 'changes' | 'none' | 'error';
  readonly costEstimation: boolean;
  /** Set once confirmed: the run is `applied`. */
  appliedAt?: number;
}

export interface DataRetentionPolicyRecord {
  readonly id: string;
  readonly type: 'data-retention-policy-delete-olders' | 'data-retention-policy-dont-deletes';
  readonly deleteOlderThanNDays?: number;
}

export interface PlatformState {
  users: Record<string, UserRecord>;
  /** Keyed by SHA-256 hex digest of the token string. */
  tokens: Record<string, TokenRecord>;
  /** Keyed by external id. */
  organizations: Record<string, OrganizationRecord>;
  /** Keyed by pool id `apool-…`. */
  agentPools: Record<string, AgentPoolRecord>;
  agents: Record<string, AgentRecord>;
  projects: Record<string, ProjectRecord>;
  workspaces: Record<string, WorkspaceRecord>;
  oauthClients: Record<string, OAuthClientRecord>;
  registryModules: Record<string, RegistryModuleRecord>;
  noCodeModules: Record<string, NoCodeModuleRecord>;
  variableOptions: Record<string, VariableOptionsRecord>;
  upgradeRuns: Record<string, UpgradeRunRecord>;
  /** Explicit data retention policy per organization external id (self-hosted). */
  dataRetentionPolicies: Record<string, DataRetentionPolicyRecord>;
  /** The installation default an organization inherits when it has no explicit policy. */
  installationDataRetentionPolicy: DataRetentionPolicyRecord;
  /** Module producers per organization external id: external ids of organizations sharing modules with it (self-hosted). */
  moduleProducers: Record<string, string[]>;
  /** Milliseconds a workspace upgrade run spends in each status before the next. */
  upgradeStepMs: number;
  /** Monotonic counter for generated ids. */
  serial: number;
  teams: Record<string, TeamRecord>;
  /** Teams' access to workspaces, by `tws-…` id. */
  teamAccess: Record<string, TeamAccessRecord>;
  /** Variable sets by `varset-…` id. */
  variableSets: Record<string, VariableSetRecord>;
}

export function emptyState(): PlatformState {
  return {
    users: {}, tokens: {}, organizations: {}, agentPools: {}, agents: {}, projects: {}, workspaces: {}, oauthClients: {},
    registryModules: {}, noCodeModules: {}, variableOptions: {}, upgradeRuns: {}, dataRetentionPolicies: {},
    installationDataRetentionPolicy: { id: 'drp-installation', type: 'data-retention-policy-dont-deletes' },
    moduleProducers: {}, upgradeStepMs: 500, serial: 0, teams: {}, teamAccess: {}, variableSets: {},
  };
}

/** Removes everything that belongs to an organization (it is being destroyed). */
export function purgeOrganization(state: PlatformState, externalId: string): void {
  const drop = <T>(m: Record<string, T>, owned: (v: T) => boolean): void => {
    for (const [k, v] of Object.entries(m)) if (owned(v)) delete m[k];
  };
  const pools = new Set(Object.values(state.agentPools).filter((p) => p.organizationId === externalId).map((p) => p.id));
  const modules = new Set(Object.values(state.noCodeModules).filter((m) => m.organizationId === externalId).map((m) => m.id));
  const workspaces = new Set(Object.values(state.workspaces).filter((w) => w.organizationId === externalId).map((w) => w.id));
  drop(state.agents, (a) => pools.has(a.poolId));
  drop(state.agentPools, (p) => pools.has(p.id));
  drop(state.variableOptions, (v) => modules.has(v.noCodeModuleId));
  drop(state.noCodeModules, (m) => modules.has(m.id));
  drop(state.upgradeRuns, (r) => workspaces.has(r.workspaceId));
  drop(state.teamAccess ?? {}, (a) => workspaces.has(a.workspaceId));
  drop(state.teams, (t) => t.organizationId === externalId);
  drop(state.variableSets ?? {}, (v) => v.organizationId === externalId);
  drop(state.workspaces, (w) => workspaces.has(w.id));
  drop(state.projects, (p) => p.organizationId === externalId);
  drop(state.oauthClients, (c) => c.organizationId === externalId);
  drop(state.registryModules, (m) => m.organizationId === externalId);
  drop(state.tokens, (t) => t.organizationId === externalId);
  delete state.dataRetentionPolicies[externalId];
  delete state.moduleProducers[externalId];
}

/** A fresh id with a prefix, e.g. `org-3Fk…`. Random part plus a serial, so ids never repeat. */
export function newId(state: PlatformState, prefix: string): string {
  state.serial += 1;
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  let s = '';
  for (let i = 0; i < 12; i++) s += alphabet[Math.floor(Math.random() * alphabet.length)];
  return `${prefix}-${s}${state.serial.toString(36)}`;
}
