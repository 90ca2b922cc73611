import { KindSchema } from '../../core/schema';
import { EXECUTION_MODES } from '../shared/value-sets';

/** Collaborator authentication policies (the spec's `collaborator-auth-policy`). */
export const COLLABORATOR_AUTH_POLICIES = ['password', 'two_factor_mandatory'] as const;

/** `platform.Organization`: the spec's organization create/update body, camelCased; its name is its id. */
export const ORGANIZATION: KindSchema = {
  kind: 'platform.Organization',
  api: 'platform',
  wireCase: 'kebab',
  fields: {
    name: { type: 'string', required: true, identity: true, pattern: /^[A-Za-z0-9_-]+$/, patternRule: "may contain only letters, numbers, '-' and '_'" },
    email: { type: 'string', required: true, pattern: /^[^@\s]+@[^@\s]+\.[^@\s]+$/, patternRule: 'is not an email address' },
    sessionTimeout: { type: 'integer', min: 1, default: 20160 },
    sessionRemember: { type: 'integer', min: 1, default: 20160 },
    collaboratorAuthPolicy: { type: 'string', oneOf: COLLABORATOR_AUTH_POLICIES, default: 'password' },
    costEstimationEnabled: { type: 'boolean', default: false },
    sendPassingStatusesForUntriggeredSpeculativePlans: { type: 'boolean', default: false },
    aggregatedCommitStatusEnabled: { type: 'boolean', default: true },
    ownersTeamSamlRoleId: { type: 'string', default: null },
    assessmentsEnforced: { type: 'boolean', default: false },
    allowForceDeleteWorkspaces: { type: 'boolean', default: false },
    defaultExecutionMode: { type: 'string', oneOf: EXECUTION_MODES, default: 'remote' },
    defaultAgentPoolId: { type: 'string', default: null },
  },
  outputs: {
    name: { type: 'string' },
    externalId: { type: 'string' },
    entitlementSetId: { type: 'string' },
  },
  unmanaged: {
    type: 'the JSON:API resource type, not a setting',
  },
};
