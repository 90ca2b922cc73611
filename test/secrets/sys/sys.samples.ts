import fc from 'fast-check';
import { AuthBackend, SecretsMount, SecretsPolicy } from '../../../lib/secrets';
import { badDuration } from '../../reliability/prop-arbitraries';
import { authBackend, range, secretsGet, secretsKeys } from '../../support/sample-world';
import { FamilySamples } from '../../support/samples';

/**
 * The samples of the sys family's kinds: see test/support/samples.ts. The secrets spec does not name
 * the system backend's endpoints: the `specFields` are the real service's (OpenBao's API
 * documentation, and what `GET` answers on the dev server in ../shared/tools), each field's name on
 * the wire and its default where it has one.
 */
export const SAMPLES: FamilySamples = {
  'secrets.SecretsMount': {
    sample: {
      weight: 3,
      build: (stack, i) => { new SecretsMount(stack, `mnt${i}`, { path: `t-mnt-${i}`, type: 'totp', description: `sample ${i}`, defaultLeaseTtl: '1h' }); },
      count: async (env) => Object.keys((await secretsGet(env, 'sys/mounts'))?.data ?? {}).filter((p) => p.startsWith('t-mnt-')).length,
    },
    full: {
      address: 'full-secrets-mount',
      build: (stack) => {
        new SecretsMount(stack, 'full-secrets-mount', {
          path: 'full/kv', type: 'kv', description: 'full sample', defaultLeaseTtl: '1h', maxLeaseTtl: '24h', options: { version: '2' },
        });
      },
    },
    // `POST sys/mounts/<path>` and `POST sys/mounts/<path>/tune`: the TTLs travel in `config` when enabling, flat when tuning.
    specFields: () => [
      { name: 'type' }, { name: 'description', default: '' }, { name: 'config' }, { name: 'options', default: {} },
      { name: 'local', default: false }, { name: 'seal_wrap', default: false }, { name: 'external_entropy_access', default: false },
      { name: 'plugin_version', default: '' },
      { name: 'default_lease_ttl', default: '0s' }, { name: 'max_lease_ttl', default: '0s' },
    ],
    // The system backend's mount table and policies.
    props: {
      base: { path: 'team-kv', type: 'kv' },
      valid: { path: fc.constantFrom('team-kv', 'team/kv', 'a.b', 'kv_2') },
      optional: { description: 'team secrets', defaultLeaseTtl: '1h', maxLeaseTtl: '24h', options: { version: '2' } },
      invalid: {
        path: fc.constantFrom('/kv', 'kv/', 'a//b', 'a/../b', '..'),
        type: fc.constantFrom('KV', 'kv v2', '-kv', 'kv/2'),
        defaultLeaseTtl: badDuration, maxLeaseTtl: badDuration,
        options: fc.constantFrom({ version: 2 }, { version: null }),
      },
    },
  },
  'secrets.AuthBackend': {
    sample: {
      // As many as the AppRole role samples, which are placed in them (the same i).
      weight: 5,
      build: (stack, i) => { authBackend(stack, i); },
      count: async (env, n) => {
        const paths = Object.keys((await secretsGet(env, 'sys/auth'))?.data ?? {});
        return range(n).filter((i) => paths.includes(`t-auth-${i}/`)).length;
      },
    },
    full: {
      address: 'full-auth-backend',
      build: (stack) => {
        new AuthBackend(stack, 'full-auth-backend', {
          path: 'full-approle', type: 'approle', description: 'full sample', defaultLeaseTtl: '1h', maxLeaseTtl: '24h', options: { flavour: 'full' },
        });
      },
    },
    // `POST sys/auth/<path>` and `POST sys/auth/<path>/tune`: as a secrets engine's mount.
    specFields: () => SAMPLES['secrets.SecretsMount'].specFields!(),
    props: {
      base: { path: 'approle', type: 'approle' },
      optional: { description: 'machines', defaultLeaseTtl: '1h', maxLeaseTtl: '24h', options: { a: 'b' } },
      invalid: { path: fc.constantFrom('/a', 'a/', 'a//b', '..'), type: fc.constantFrom('AppRole', 'app role'), defaultLeaseTtl: badDuration },
    },
  },
  'secrets.SecretsPolicy': {
    sample: {
      weight: 5,
      build: (stack, i) => { new SecretsPolicy(stack, `pol${i}`, { name: `t-pol-${i}`, policy: `path "secret/data/t/${i}/*" { capabilities = ["read"] }` }); },
      count: async (env) => (await secretsKeys(env, 'sys/policies/acl')).filter((k) => k.startsWith('t-pol-')).length,
    },
    full: {
      address: 'full-secrets-policy',
      build: (stack) => {
        new SecretsPolicy(stack, 'full-secrets-policy', { name: 'full-policy', policy: 'path "secret/data/full/*" {\n  capabilities = ["read", "list"]\n}\n' });
      },
    },
    // `POST sys/policies/acl/<name>`.
    specFields: () => [{ name: 'policy' }],
    props: {
      base: { name: 'app-read', policy: 'path "secret/data/app/*" { capabilities = ["read"] }' },
      valid: { name: fc.constantFrom('app-read', 'ci.prod', 'team_a-2', '_x') },
      invalid: { name: fc.constantFrom('App', 'root', 'default', 'a/b', 'a b', '-a', 'a-'), policy: fc.constantFrom('', '  ') },
    },
  },
};
