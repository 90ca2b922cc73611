import fc from 'fast-check';
import { RemovalPolicy } from '../../../lib';
import { AgentPool, AgentStatus, Organization } from '../../../lib/platform';
import { ACME, badName, goodName, notEnum, orgNamed } from '../../reliability/prop-arbitraries';
import { orgName, organization, platformGet, range } from '../../support/sample-world';
import { FamilySamples } from '../../support/samples';
import { SpecField, defaultOf, specText } from '../../support/spec-tables';

/** A body given in prose (`data.attributes.name (string, required), data.attributes.organization-scoped (boolean, default true), …`). */
function proseBody(marker: string): SpecField[] {
  const text = specText('platform-api');
  const start = text.indexOf(marker);
  if (start < 0) throw new Error(`no "${marker}" in platform-api`);
  const paragraph = text.slice(start, text.indexOf('\n', start));
  const fields: SpecField[] = [];
  for (const m of paragraph.matchAll(/data\.(attributes|relationships)\.([a-z_-]+)[^\s(]*(?: \(([^)]*)\))?/g)) {
    const def = /default ([^,)]+)/.exec(m[3] ?? '');
    fields.push({ name: m[2], default: defaultOf(def?.[1]) });
  }
  return fields;
}

/** The samples of the agent-pool family's kinds: see test/support/samples.ts. */
export const SAMPLES: FamilySamples = {
  'platform.AgentPool': {
    sample: {
      weight: 10,
      build: (stack, i) => {
        new AgentPool(stack, `pool${i}`, { organization: organization(stack, i), name: `pool-${i}`, allowedWorkspaces: [] });
      },
      count: async (env, n) => (await Promise.all(range(n).map(async (i) => ((await platformGet(env, `/organizations/${orgName(i)}/agent-pools`))?.data ?? []).length)))
        .reduce((a, b) => a + b, 0),
    },
    full: {
      address: 'full-agent-pool',
      build: (stack) => {
        const org = new Organization(stack, 'full-pool-org', { name: 'full-pool-org', email: 'full@acme.io', removalPolicy: RemovalPolicy.DESTROY });
        new AgentPool(stack, 'full-agent-pool', { organization: org, name: 'full-pool', organizationScoped: false, allowedWorkspaces: [], deleteInactiveAgents: true });
      },
      defaultsKept: { allowedWorkspaces: 'a workspace is not a converge object: none exists in an organization created by the same apply' },
    },
    specFields: () => proseBody('**Create pool**'),
    props: {
      base: { organization: ACME, name: 'pool' },
      optional: { organizationScoped: false, allowedWorkspaces: [{ workspaceId: 'ws-1', workspaceName: 'web' }], deleteInactiveAgents: true },
      valid: { name: goodName },
      invalid: { organization: orgNamed(badName), name: badName, allowedWorkspaces: fc.constant([{ workspaceId: 'x-1', workspaceName: 'web' }]) },
    },
  },
  'platform.Agents': {
    props: {
      base: { agentPool: { agentPoolId: 'apool-1', agentPoolName: 'pool' } },
      optional: { statuses: [AgentStatus.IDLE], lastPingSince: '2026-01-01T00:00:00Z' },
      invalid: { agentPool: fc.constantFrom('pool-1', '').map((agentPoolId) => ({ agentPoolId, agentPoolName: 'pool' })), statuses: notEnum.map((s) => [s]), lastPingSince: fc.constantFrom('yesterday', 'x') },
    },
  },
};
