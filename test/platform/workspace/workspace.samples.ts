import fc from 'fast-check';
import { RemovalPolicy } from '../../../lib';
import { ExecutionMode, Organization, Project, Workspace } from '../../../lib/platform';
import { ACME, badName, goodName, notEnum, orgNamed } from '../../reliability/prop-arbitraries';
import { countWhere, orgName, platformGet, workspace } from '../../support/sample-world';
import { FamilySamples } from '../../support/samples';

/** The samples of the workspace family's kinds: see test/support/samples.ts. */
export const SAMPLES: FamilySamples = {
  'platform.Workspace': {
    sample: {
      weight: 5,
      build: (stack, i) => { workspace(stack, i); },
      count: (env, n) => countWhere(n, async (i) => (await platformGet(env, `/organizations/${orgName(i)}/workspaces/ws-${i}`)) !== undefined),
    },
    full: {
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
    specFields: () => [
      { name: 'name' }, { name: 'description', default: '' }, { name: 'project', default: null }, { name: 'execution-mode', default: 'remote' },
      { name: 'agent-pool-id', default: null }, { name: 'engine-version', default: null }, { name: 'working-directory', default: '' },
      { name: 'auto-apply', default: false }, { name: 'tag-names', default: [] },
    ],
    props: {
      base: { organization: ACME, name: 'web' },
      optional: {
        description: 'd', project: { projectId: 'prj-1', projectName: 'apps' }, terraformVersion: '1.9.5', workingDirectory: 'infra',
        autoApply: true, tags: ['team:web'],
      },
      valid: { name: goodName },
      invalid: {
        organization: orgNamed(badName), name: badName, tags: fc.constant(['Upper Case']), terraformVersion: fc.constantFrom('~> 1.5', 'x'),
        project: fc.constant({ projectId: 'ws-1', projectName: 'p' }), executionMode: notEnum,
      },
    },
  },
};
