import { FieldsSchema, KindSchema } from '../../core/schema';
import { ORGANIZATION_FIELD } from '../shared/references';

/** The team visibilities of the platform. */
export const TEAM_VISIBILITIES = ['secret', 'organization'] as const;

/** A team's organization access (go-tfe's `OrganizationAccessOptions`): each a boolean, false unless granted. */
export const ORGANIZATION_ACCESS_KEYS = [
  'managePolicies', 'managePolicyOverrides', 'manageWorkspaces', 'manageVcsSettings', 'manageProviders', 'manageModules',
  'manageRunTasks', 'manageProjects', 'readWorkspaces', 'readProjects', 'manageMembership', 'manageTeams',
  'manageOrganizationAccess', 'accessSecretTeams', 'manageAgentPools',
] as const;

const ACCESS_FIELDS: FieldsSchema = Object.fromEntries(ORGANIZATION_ACCESS_KEYS.map((k) => [k, { type: 'boolean', default: false }]));

/**
 * `platform.Team`: the real platform's create/update body (go-tfe's `TeamCreateOptions`), camelCased;
 * renamed in place, moved to another organization by replacement.
 */
export const TEAM: KindSchema = {
  kind: 'platform.Team',
  api: 'platform',
  wireCase: 'kebab',
  fields: {
    organization: ORGANIZATION_FIELD,
    name: { type: 'string', required: true, pattern: /^[A-Za-z0-9_-]{1,255}$/, patternRule: "may contain only letters, numbers, '-' and '_'" },
    visibility: { type: 'string', oneOf: TEAM_VISIBILITIES, default: 'secret' },
    organizationAccess: { type: 'object', default: {}, fields: ACCESS_FIELDS },
  },
  outputs: {
    id: { type: 'string' },
  },
};
