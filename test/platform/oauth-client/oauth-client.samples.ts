import fc from 'fast-check';
import { SecretValue } from '../../../lib';
import { OAuthClient, Project, VcsServiceProvider } from '../../../lib/platform';
import { ACME, badName, notEnum, orgNamed } from '../../reliability/prop-arbitraries';
import { ENV, seed, seededOrganization } from '../../schema/full-sample-helpers';
import { bodyFields } from '../../schema/spec-field-readers';
import { orgName, organization, platformGet, range } from '../../support/sample-world';
import { FamilySamples } from '../../support/samples';
import { specTableAfter } from '../../support/spec-tables';

const badUrl = fc.constantFrom('', 'vcs.example.com', 'ftp://x', 'http://', 'https://a b', 'javascript:alert(1)');

/** The samples of the oauth-client family's kinds: see test/support/samples.ts. */
export const SAMPLES: FamilySamples = {
  'platform.OAuthClient': {
    sample: {
      weight: 10,
      build: (stack, i) => {
        new OAuthClient(stack, `vcs${i}`, {
          organization: organization(stack, i), name: `vcs-${i}`, serviceProvider: VcsServiceProvider.PROVIDER_A, key: `key-${i}`,
          httpUrl: 'https://vcs.example.com', apiUrl: 'https://api.vcs.example.com', oauthToken: SecretValue.fromEnv('PLANTED_OAUTH_TOKEN'),
        });
      },
      count: async (env, n) => (await Promise.all(range(n).map(async (i) => ((await platformGet(env, `/organizations/${orgName(i)}/oauth-clients`))?.data ?? []).length)))
        .reduce((a, b) => a + b, 0),
    },
    full: {
      address: 'full-oauth-client',
      seed,
      env: ENV,
      build: (stack) => {
        new OAuthClient(stack, 'full-oauth-client', {
          organization: seededOrganization(stack), name: 'full-vcs', serviceProvider: VcsServiceProvider.PROVIDER_C_SERVER, key: 'full-key',
          httpUrl: 'https://vcs.full.example.com', apiUrl: 'https://api.vcs.full.example.com', oauthToken: SecretValue.fromEnv('FULL_SAMPLE_SECRET'),
          privateKey: SecretValue.fromEnv('FULL_SAMPLE_SECRET'), secret: SecretValue.fromEnv('FULL_SAMPLE_SECRET'), rsaPublicKey: 'ssh-rsa AAAAfull',
          organizationScoped: false, projects: [Project.fromName(stack, 'full-oauth-project', seededOrganization(stack), 'full')],
        });
      },
    },
    specFields: () => bodyFields(specTableAfter('platform-api', 'Body (properties without default are required)', '**Create** `POST /organizations/<org_name>/oauth-clients`')),
    props: {
      base: {
        organization: ACME, serviceProvider: VcsServiceProvider.PROVIDER_A,
        httpUrl: 'https://vcs.example.com', apiUrl: 'https://api.vcs.example.com', oauthToken: SecretValue.unsafePlainText('t'),
      },
      optional: { name: 'vcs', key: 'k', organizationScoped: false, projects: [{ projectId: 'prj-1', projectName: 'p' }], secret: SecretValue.unsafePlainText('s') },
      secretVariants: [{
        organization: ACME, name: 'vcs-c', serviceProvider: VcsServiceProvider.PROVIDER_C_SERVER, key: 'k', httpUrl: 'https://vcs.example.com',
        apiUrl: 'https://api.vcs.example.com', oauthToken: SecretValue.unsafePlainText('t'), privateKey: SecretValue.unsafePlainText('pk'),
      }],
      invalid: { organization: orgNamed(badName), serviceProvider: notEnum, httpUrl: badUrl, apiUrl: badUrl, projects: fc.constant([{ projectId: 'abc', projectName: 'p' }]) },
    },
  },
};
