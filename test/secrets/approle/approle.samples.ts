import fc from 'fast-check';
import { AppRoleRole, AuthBackend } from '../../../lib/secrets';
import { badDuration } from '../../reliability/prop-arbitraries';
import { authBackend, range, secretsKeys } from '../../support/sample-world';
import { FamilySamples } from '../../support/samples';

/** The samples of the approle family's kinds: see test/support/samples.ts. */
export const SAMPLES: FamilySamples = {
  'secrets.AppRoleRole': {
    sample: {
      weight: 5,
      build: (stack, i) => { new AppRoleRole(stack, `arole${i}`, { authBackend: authBackend(stack, i), name: `t-arole-${i}`, tokenPolicies: ['b', 'a'], secretIdTtl: '1h' }); },
      count: async (env, n) => (await Promise.all(range(n).map(async (i) => (await secretsKeys(env, `auth/t-auth-${i}/role`)).length))).reduce((a, b) => a + b, 0),
    },
    full: {
      address: 'full-approle-role',
      build: (stack) => {
        const method = new AuthBackend(stack, 'full-approle-role-method', { path: 'full-approle-roles', type: 'approle' });
        new AppRoleRole(stack, 'full-approle-role', {
          authBackend: method, name: 'full-role', tokenPolicies: ['a', 'b'], tokenTtl: '20m', tokenMaxTtl: '1h', tokenNumUses: 3,
          tokenType: 'service', bindSecretId: false, secretIdTtl: '10m', secretIdNumUses: 2,
        });
      },
    },
    // `POST auth/<mount>/role/<name>` of the AppRole method.
    specFields: () => [
      { name: 'bind_secret_id', default: true }, { name: 'secret_id_bound_cidrs' }, { name: 'secret_id_num_uses', default: 0 },
      { name: 'secret_id_ttl', default: '0s' }, { name: 'local_secret_ids', default: false }, { name: 'token_ttl', default: '0s' },
      { name: 'token_max_ttl', default: '0s' }, { name: 'token_policies', default: [] }, { name: 'token_bound_cidrs' },
      { name: 'token_explicit_max_ttl' }, { name: 'token_no_default_policy', default: false }, { name: 'token_num_uses', default: 0 },
      { name: 'token_period' }, { name: 'token_type', default: 'default' }, { name: 'token_strictly_bind_ip' },
    ],
    props: {
      base: { name: 'ci' },
      optional: { mount: 'approle', tokenPolicies: ['ci-app'], tokenTtl: '1h', tokenMaxTtl: '2h', tokenNumUses: 1, tokenType: 'batch', bindSecretId: true, secretIdTtl: '24h', secretIdNumUses: 3 },
      invalid: {
        name: fc.constantFrom('CI', 'a/b', 'a b', '-a'), tokenTtl: badDuration, secretIdTtl: badDuration, tokenType: fc.constantFrom('token', 'Service'),
        tokenPolicies: fc.constantFrom(['Admin'], ['a b']), secretIdNumUses: fc.integer({ max: -1 }),
      },
    },
  },
  'secrets.AppRoleSecretId': {
    props: {
      base: { role: { mount: 'approle', roleName: 'ci' } },
      invalid: { role: fc.constantFrom({ mount: 'approle', roleName: 'a/b' }, { mount: 'approle', roleName: '' }, { mount: 'approle' }) },
    },
  },
};
