import fc from 'fast-check';
import { RemovalPolicy } from '../../../lib';
import { CollaboratorAuthPolicy, DataRetentionPolicy, ExecutionMode, Organization } from '../../../lib/platform';
import { ACME, badName, goodName, notEnum, orgNamed } from '../../reliability/prop-arbitraries';
import { countWhere, orgName, organization, platformGet } from '../../support/sample-world';
import { FamilySamples } from '../../support/samples';
import { keyPathFields, specTableAfter } from '../../support/spec-tables';

/** The samples of the organization family's kinds: see test/support/samples.ts. */
export const SAMPLES: FamilySamples = {
  'platform.Organization': {
    sample: {
      weight: 10,
      build: (stack, i) => { organization(stack, i); },
      count: async (env) => ((await platformGet(env, '/organizations?q=t-org-'))?.data ?? []).length,
    },
    full: {
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
    specFields: () => keyPathFields(specTableAfter('platform-api', 'Body of create and update', '### Organizations'), 'data.attributes.'),
    props: {
      base: { name: 'acme', email: 'ops@acme.io' },
      optional: {
        sessionTimeout: 60, sessionRemember: 120, collaboratorAuthPolicy: CollaboratorAuthPolicy.TWO_FACTOR_MANDATORY,
        costEstimationEnabled: true, assessmentsEnforced: true, allowForceDeleteWorkspaces: false, ownersTeamSamlRoleId: 'role',
        aggregatedCommitStatusEnabled: true, defaultExecutionMode: ExecutionMode.LOCAL,
      },
      valid: { name: goodName, sessionTimeout: fc.integer({ min: 1, max: 1e6 }) },
      invalid: {
        name: badName, email: fc.constantFrom('no-at', 'a@b', 'a b@c.d', '@x.io'),
        sessionTimeout: fc.oneof(fc.integer({ max: 0 }), fc.double({ min: 0.1, max: 100, noInteger: true }), fc.constant(NaN)),
        sessionRemember: fc.integer({ max: 0 }),
        collaboratorAuthPolicy: notEnum, defaultExecutionMode: notEnum,
      },
    },
  },
  'platform.DataRetentionPolicy': {
    sample: {
      weight: 5,
      build: (stack, i) => { new DataRetentionPolicy(stack, `retention${i}`, { organization: organization(stack, i), deleteOlderThanNDays: 30 + i }); },
      count: (env, n) => countWhere(n, async (i) => {
        const p = await platformGet(env, `/organizations/${orgName(i)}/relationships/data-retention-policy`);
        return p?.data?.attributes?.['delete-older-than-n-days'] === 30 + i;
      }),
    },
    full: {
      address: 'full-data-retention-policy',
      selfHosted: true,
      build: (stack) => {
        const org = new Organization(stack, 'full-retention-org', { name: 'full-retention-org', email: 'full@acme.io', removalPolicy: RemovalPolicy.DESTROY });
        new DataRetentionPolicy(stack, 'full-data-retention-policy', { organization: org, deleteOlderThanNDays: 30 });
      },
    },
    // The spec shows no body ("not shown"); REAL-SYSTEMS.md gives the real platform's: type
    // `data-retention-policy-delete-olders` with attribute `delete-older-than-n-days`, or `…-dont-deletes`.
    specFields: () => [{ name: 'delete-older-than-n-days' }],
    props: {
      base: { organization: ACME },
      optional: { deleteOlderThanNDays: 30 },
      invalid: { organization: orgNamed(badName), deleteOlderThanNDays: fc.oneof(fc.integer({ max: 0 }), fc.constant(1.5)) },
    },
  },
  'platform.OrganizationEntitlements': {
    props: { base: { organization: ACME }, invalid: { organization: orgNamed(badName) } },
  },
};
