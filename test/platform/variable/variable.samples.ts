import fc from 'fast-check';
import { RemovalPolicy, SecretValue } from '../../../lib';
import { Organization, Variable, VariableCategory, Workspace } from '../../../lib/platform';
import { notEnum } from '../../reliability/prop-arbitraries';
import { ENV } from '../../schema/full-sample-helpers';
import { countWhere, orgName, platformGet, workspace } from '../../support/sample-world';
import { FamilySamples } from '../../support/samples';

/** The samples of the variable family's kinds: see test/support/samples.ts. */
export const SAMPLES: FamilySamples = {
  'platform.Variable': {
    sample: {
      weight: 5,
      build: (stack, i) => {
        new Variable(stack, `var${i}`, { workspace: workspace(stack, i), key: 'TOKEN', category: VariableCategory.ENV, sensitiveValue: SecretValue.fromEnv('PLANTED_ENGINE_SECRET') });
      },
      count: (env, n) => countWhere(n, async (i) => {
        const ws = await platformGet(env, `/organizations/${orgName(i)}/workspaces/ws-${i}`);
        const vars = ws ? (await platformGet(env, `/workspaces/${ws.data.id}/vars`))?.data ?? [] : [];
        return vars.some((v: any) => v.attributes.key === 'TOKEN');
      }),
    },
    full: {
      address: 'full-variable',
      env: ENV,
      build: (stack) => {
        const org = new Organization(stack, 'full-var-org', { name: 'full-var-org', email: 'full@acme.io', removalPolicy: RemovalPolicy.DESTROY });
        const workspace = new Workspace(stack, 'full-var-ws', { organization: org, name: 'full-var-ws' });
        new Variable(stack, 'full-variable', { workspace, key: 'TOKEN', description: 'every field', category: VariableCategory.ENV, sensitiveValue: SecretValue.fromEnv('FULL_SAMPLE_SECRET') });
      },
      defaultsKept: {
        value: 'a sensitive variable (sensitiveValue) has no plain value', hcl: 'HCL is for input variables; this one is an environment variable (and sensitive)',
        variableSet: 'a variable is of a workspace or of a variable set, not both: a set\'s (test/platform/variable-set-variable.e2e.test.ts)',
      },
    },
    specFields: () => [
      // `value`: a plain variable's (default '') or a sensitive one's (`sensitiveValue`, write-only): one attribute of the body.
      { name: 'key' }, { name: 'value' }, { name: 'description', default: '' }, { name: 'category', default: 'engine' },
      { name: 'hcl', default: false }, { name: 'sensitive' },
    ],
    props: {
      base: { workspace: { workspaceId: 'ws-1', workspaceName: 'web' }, key: 'region' },
      optional: { value: 'eu', description: 'd', category: VariableCategory.ENV },
      secretVariants: [{ workspace: { workspaceId: 'ws-1', workspaceName: 'web' }, key: 'TOKEN', sensitiveValue: SecretValue.unsafePlainText('s') }],
      invalid: { workspace: fc.constant({ workspaceId: 'prj-1', workspaceName: 'web' }), key: fc.constantFrom('bad key', 'a/b'), category: notEnum },
    },
  },
};
