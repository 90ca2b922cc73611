import fc from 'fast-check';
import { TerraformStack } from 'cdktf';
import { SecretValue } from '../../../lib';
import { IOrganization, NoCodeModule, NoCodeWorkspace, Organization, VariableCategory } from '../../../lib/platform';
import { ACME, badDuration, badName, orgNamed } from '../../reliability/prop-arbitraries';
import { projectId, seed, seededOrganization } from '../../schema/full-sample-helpers';
import { bodyFields } from '../../schema/spec-field-readers';
import { countWhere, ncOrg, ncProjects, once, platformGet, range } from '../../support/sample-world';
import { FamilySamples } from '../../support/samples';
import { specTableAfter } from '../../support/spec-tables';

/** The i-th seeded no-code organization, looked up. */
function ncOrganization(stack: TerraformStack, i: number): IOrganization {
  return once(stack, `ncorg${i}`, () => Organization.fromName(stack, `ncorg${i}`, ncOrg(i)));
}

function noCodeModule(stack: TerraformStack, i: number): NoCodeModule {
  return once(stack, `nc${i}`, () => new NoCodeModule(stack, `nc${i}`, {
    organization: ncOrganization(stack, i), moduleName: 'bucket', moduleProvider: 'aws', variableOptions: [{ variableName: 'size', variableType: 'string', options: ['s', 'l'] }],
  }));
}

/** The samples of the no-code family's kinds: see test/support/samples.ts. */
export const SAMPLES: FamilySamples = {
  'platform.NoCodeModule': {
    sample: {
      weight: 3,
      build: (stack, i) => { noCodeModule(stack, i); },
      count: async (env, n) => (await Promise.all(range(n).map(async (i) => {
        const mod = await platformGet(env, `/organizations/${ncOrg(i)}/registry-modules/private/${ncOrg(i)}/bucket/aws`);
        return (mod?.data?.relationships?.['no-code-modules']?.data ?? []).length;
      }))).reduce((a, b) => a + b, 0),
    },
    full: {
      address: 'full-no-code-module',
      seed,
      build: (stack) => {
        new NoCodeModule(stack, 'full-no-code-module', {
          organization: seededOrganization(stack), moduleName: 'options', moduleProvider: 'aws', versionPin: '1.0.0', enabled: false,
          variableOptions: [{ variableName: 'size', variableType: 'string', options: ['s', 'm'] }, { variableName: 'region', variableType: 'string', options: ['eu'] }],
        });
      },
    },
    specFields: () => bodyFields(specTableAfter('platform-api', '| Key path', '**Enable** `POST /organizations/<org_name>/no-code-modules`')),
    props: {
      base: { organization: ACME, moduleName: 'net', moduleProvider: 'aws' },
      optional: { versionPin: '1.0.0', enabled: false, variableOptions: [{ variableName: 'region', variableType: 'string', options: ['a'] }] },
      invalid: { organization: orgNamed(badName), moduleName: badName, moduleProvider: badName },
    },
  },
  'platform.NoCodeWorkspace': {
    sample: {
      weight: 3,
      build: (stack, i) => {
        const mod = noCodeModule(stack, i);
        new NoCodeWorkspace(stack, `ncws${i}`, {
          organization: ncOrganization(stack, i), noCodeModule: mod, projectId: ncProjects[i] ?? 'prj-unseeded', name: `t-ncws-${i}`,
          variables: [{ key: 'size', value: 's' }], upgradePollInterval: '20ms',
        });
      },
      count: (env, n) => countWhere(n, async (i) => (await platformGet(env, `/organizations/${ncOrg(i)}/workspaces/t-ncws-${i}`)) !== undefined),
    },
    full: {
      address: 'full-no-code-workspace',
      seed,
      build: (stack) => {
        const org = seededOrganization(stack);
        const mod = new NoCodeModule(stack, 'full-workspace-module', { organization: org, moduleName: 'bucket', moduleProvider: 'aws', versionPin: '1.1.0' });
        new NoCodeWorkspace(stack, 'full-no-code-workspace', {
          organization: org, noCodeModule: mod, projectId, name: 'full-workspace', description: 'every field', autoApply: true,
          variables: [{ key: 'region', value: 'eu-west-1', category: VariableCategory.ENV, hcl: true, description: 'where' }],
          moduleVersion: mod.pinnedVersion, upgradeTimeout: '5m', upgradePollInterval: '1s',
        });
      },
    },
    specFields: () => bodyFields(specTableAfter('platform-api', '| Key path', '**Create workspace**')),
    props: {
      base: { organization: ACME, noCodeModule: { noCodeModuleId: 'nocode-1', pinnedVersion: '1.0.0' }, projectId: 'prj-1', name: 'ws' },
      optional: {
        description: 'd', autoApply: true, moduleVersion: '1.0.0', upgradeTimeout: '5m', upgradePollInterval: '1s',
        variables: [{ key: 'k', value: 'v' }, { key: 'p', sensitiveValue: SecretValue.unsafePlainText('x') }],
      },
      invalid: {
        organization: orgNamed(badName), name: badName, noCodeModule: fc.constant({ noCodeModuleId: 'mod-1', pinnedVersion: '1.0.0' }), projectId: fc.constant('ws-1'),
        upgradeTimeout: badDuration, upgradePollInterval: badDuration,
      },
    },
  },
  'platform.ModuleProducers': {
    props: { base: { organization: ACME }, invalid: { organization: orgNamed(badName) } },
  },
};
