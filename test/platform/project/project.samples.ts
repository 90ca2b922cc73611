import fc from 'fast-check';
import { RemovalPolicy } from '../../../lib';
import { Organization, Project } from '../../../lib/platform';
import { ACME, badName, orgNamed } from '../../reliability/prop-arbitraries';
import { countWhere, orgName, platformGet, project } from '../../support/sample-world';
import { FamilySamples } from '../../support/samples';

/** The samples of the project family's kinds: see test/support/samples.ts. */
export const SAMPLES: FamilySamples = {
  'platform.Project': {
    sample: {
      weight: 5,
      build: (stack, i) => { project(stack, i); },
      count: (env, n) => countWhere(n, async (i) => ((await platformGet(env, `/organizations/${orgName(i)}/projects?filter[names]=apps-${i}`))?.data ?? []).length === 1),
    },
    full: {
      address: 'full-project',
      build: (stack) => {
        const org = new Organization(stack, 'full-project-org', { name: 'full-project-org', email: 'full@acme.io', removalPolicy: RemovalPolicy.DESTROY });
        new Project(stack, 'full-project', { organization: org, name: 'full apps', description: 'every field' });
      },
    },
    // Not in the spec's excerpt: the real platform's bodies (go-tfe's create options), with the spec's
    // `engine-version` and `engine` category for the Terraform version and input variables.
    specFields: () => [{ name: 'name' }, { name: 'description', default: '' }],
    props: {
      base: { organization: ACME, name: 'apps' },
      optional: { description: 'd' },
      invalid: { organization: orgNamed(badName), name: fc.constantFrom('ab', ' apps', 'a/b', 'x'.repeat(41)) },
    },
  },
};
