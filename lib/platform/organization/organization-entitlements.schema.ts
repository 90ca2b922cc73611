import { KindSchema, OutputSchema } from '../../core/schema';
import { NAME_RULE } from '../shared/references';

/** The spec's boolean attributes of an entitlement set, camelCased. */
export const ENTITLEMENT_FEATURES = ['agents', 'auditLogging', 'configurationDesigner', 'costEstimation', 'globalRunTasks',
  'moduleTestsGeneration', 'operations', 'policyEnforcement', 'privateModuleRegistry', 'privatePolicyAgents', 'privateVcs',
  'runTasks', 'selfServeBilling', 'policyengine', 'sso', 'stateStorage', 'teams', 'usageReporting', 'vcsIntegrations'] as const;
/** The spec's integer-or-null attributes of an entitlement set, camelCased. */
export const ENTITLEMENT_LIMITS = ['policyLimit', 'policyMandatoryEnforcementLimit', 'policySetLimit', 'runTaskLimit',
  'runTaskMandatoryEnforcementLimit', 'runTaskWorkspaceLimit', 'userLimit', 'versionedPolicySetLimit'] as const;

const outputs = (names: readonly string[], type: OutputSchema['type']) => Object.fromEntries(names.map((n) => [n, { type }]));

/** `platform.OrganizationEntitlements`: an organization's entitlement set, read at plan time. */
export const ORGANIZATION_ENTITLEMENTS: KindSchema = {
  kind: 'platform.OrganizationEntitlements',
  api: 'platform',
  wireCase: 'kebab',
  fields: {
    organization: { type: 'string', required: true, ...NAME_RULE },
  },
  outputs: {
    /** The entitlement set id: the organization external id (`org-…`). */
    id: { type: 'string' },
    ...outputs(ENTITLEMENT_FEATURES, 'boolean'),
    ...outputs(ENTITLEMENT_LIMITS, 'number'),
  },
};
