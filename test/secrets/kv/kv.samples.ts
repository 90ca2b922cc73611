import fc from 'fast-check';
import { SecretValue } from '../../../lib';
import { KvEngineConfig, KvSecret } from '../../../lib/secrets';
import { badDuration, goodName } from '../../reliability/prop-arbitraries';
import { DEFAULT_MOUNT } from '../../schema/full-sample-helpers';
import { parameters } from '../../schema/spec-field-readers';
import { countWhere, secretsGet, secretsKeys } from '../../support/sample-world';
import { FamilySamples } from '../../support/samples';

/** The samples of the kv family's kinds: see test/support/samples.ts. */
export const SAMPLES: FamilySamples = {
  'secrets.KvSecret': {
    sample: {
      weight: 120,
      build: (stack, i) => {
        new KvSecret(stack, `kv${i}`, { path: `torture/s${i}`, data: { n: String(i), password: SecretValue.fromEnv('PLANTED_KV_PASSWORD') } });
      },
      count: async (env) => (await secretsKeys(env, 'secret/metadata/torture/')).length,
    },
    full: {
      address: 'full-kv-secret',
      build: (stack) => {
        new KvSecret(stack, 'full-kv-secret', {
          path: 'full/app/db', data: { user: 'app', port: 5432, tls: true, password: SecretValue.unsafePlainText('full-sample-password') },
          customMetadata: { owner: 'full', team: 'platform' }, maxVersions: 5, casRequired: true, deleteVersionAfter: '1h30m',
        });
      },
      defaultsKept: { mount: DEFAULT_MOUNT },
    },
    // A key's version body and its metadata body: converge writes both.
    specFields: () => parameters('### Key-value engine', 'Create or update', 'Create or update metadata'),
    props: {
      base: { path: 'app/db', data: { user: 'u', password: SecretValue.unsafePlainText('p') } },
      optional: { mount: 'kv', customMetadata: { owner: 'ops' }, maxVersions: 5, casRequired: true, deleteVersionAfter: '1h' },
      valid: { path: fc.array(goodName, { minLength: 1, maxLength: 4 }).map((a) => a.join('/')) },
      invalid: {
        path: fc.constantFrom('/a', 'a/', 'a//b', 'a/../b', '..', 'a/./b', '../x'),
        mount: fc.constantFrom('/kv', 'kv/', 'a/../b', '..', 'a//b'),
        maxVersions: fc.oneof(fc.integer({ max: -1 }), fc.constant(1.5)),
        deleteVersionAfter: fc.oneof(badDuration, fc.constant('1.5s')),
        data: fc.constantFrom({ k: { nested: 1 } }, { k: null }, { k: Infinity }, { '': 'v' }),
        customMetadata: fc.constantFrom({ k: '' }, { k: 'x'.repeat(513) }, { ['k'.repeat(129)]: 'v' }, { k: 5 }),
      },
    },
  },
  'secrets.KvEngineConfig': {
    sample: {
      weight: 3,
      // A mount's configuration always exists (its defaults): taking it over is adopting it.
      build: (stack, i) => { new KvEngineConfig(stack, `kvcfg${i}`, { mount: `t-kv-${i}`, maxVersions: 7, deleteVersionAfter: '60m' }); },
      count: (env, n) => countWhere(n, async (i) => (await secretsGet(env, `t-kv-${i}/config`))?.data?.max_versions === 7),
    },
    full: {
      address: 'full-kv-engine-config',
      build: (stack) => {
        new KvEngineConfig(stack, 'full-kv-engine-config', { maxVersions: 7, casRequired: true, deleteVersionAfter: '768h' });
      },
      defaultsKept: { mount: DEFAULT_MOUNT },
    },
    specFields: () => parameters('### Key-value engine', 'Configure'),
    props: {
      base: {},
      optional: { mount: 'kv', maxVersions: 10, casRequired: true, deleteVersionAfter: '24h' },
      invalid: {
        mount: fc.constantFrom('', '/kv', 'kv/', 'a/../b'), maxVersions: fc.integer({ max: -1 }),
        deleteVersionAfter: badDuration,
      },
    },
  },
  'secrets.KvSecretData': {
    props: { base: { path: 'app/db' }, optional: { version: 2 }, invalid: { path: fc.constantFrom('a/../b', '/a', 'a/'), version: fc.integer({ max: -1 }) } },
  },
  'secrets.KvSecretSubkeys': {
    props: {
      base: { path: 'app/db' }, optional: { version: 2, depth: 1 },
      invalid: { path: fc.constantFrom('a/../b', '/a', 'a/'), version: fc.integer({ max: -1 }), depth: fc.integer({ max: -1 }) },
    },
  },
};
