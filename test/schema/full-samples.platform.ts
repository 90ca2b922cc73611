import { Organization } from '../../lib/platform/organization/organization';
import { FullSample } from './full-samples';

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
};
