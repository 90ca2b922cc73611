import fc from 'fast-check';
import { RemovalPolicy } from '../../../lib';
import { Organization, Project, VariableSet, Workspace } from '../../../lib/platform';
import { ACME, badName, orgNamed } from '../../reliability/prop-arbitraries';
import { orgName, organization, platformGet, project, range, workspace } from '../../support/sample-world';
import { FamilySamples } from '../../support/samples';

/** The samples of the variable-set family's kinds: see test/support/samples.ts. */
export const SAMPLES: FamilySamples = {
  'platform.VariableSet': {
    sample: {
      weight: 5,
      build: (stack, i) => {
        new VariableSet(stack, `varset${i}`, { organization: organization(stack, i), name: `set-${i}`, workspaces: [workspace(stack, i)], projects: [project(stack, i)] });
      },
      count: async (env, n) => (await Promise.all(range(n).map(async (i) => ((await platformGet(env, `/organizations/${orgName(i)}/varsets`))?.data ?? []).length)))
        .reduce((a, b) => a + b, 0),
    },
    full: {
      address: 'full-variable-set',
      build: (stack) => {
        const org = new Organization(stack, 'full-varset-org', { name: 'full-varset-org', email: 'full@acme.io', removalPolicy: RemovalPolicy.DESTROY });
        const project = new Project(stack, 'full-varset-project', { organization: org, name: 'full-varset' });
        const workspace = new Workspace(stack, 'full-varset-ws', { organization: org, name: 'full-varset-ws' });
        new VariableSet(stack, 'full-variable-set', { organization: org, name: 'full set', description: 'every field', priority: true, workspaces: [workspace], projects: [project] });
      },
      defaultsKept: { global: 'a global set applies to every workspace and takes no workspaces nor projects (those are set here)' },
    },
    specFields: () => [
      { name: 'name' }, { name: 'description', default: '' }, { name: 'global', default: false }, { name: 'priority', default: false },
      { name: 'workspaces', default: [] }, { name: 'projects', default: [] },
    ],
    props: {
      base: { organization: ACME, name: 'cloud' },
      optional: {
        description: 'd', priority: true, workspaces: [{ workspaceId: 'ws-1', workspaceName: 'web' }], projects: [{ projectId: 'prj-1', projectName: 'apps' }],
      },
      invalid: {
        organization: orgNamed(badName), name: fc.constantFrom(' lead', 'x'.repeat(129)),
        workspaces: fc.constant([{ workspaceId: 'prj-1', workspaceName: 'web' }]), projects: fc.constant([{ projectId: 'ws-1', projectName: 'apps' }]),
      },
    },
  },
};
