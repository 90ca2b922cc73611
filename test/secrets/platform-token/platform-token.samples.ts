import fc from 'fast-check';
import { SecretValue } from '../../../lib';
import { PlatformTokenConfig, PlatformTokenRole } from '../../../lib/secrets';
import { badDuration, badSegmentName } from '../../reliability/prop-arbitraries';
import { TOKENS_DEFAULT_MOUNT } from '../../schema/full-sample-helpers';
import { operation } from '../../schema/spec-field-readers';
import { countWhere, secretsGet, secretsKeys } from '../../support/sample-world';
import { FamilySamples } from '../../support/samples';

/** The samples of the platform-token family's kinds: see test/support/samples.ts. */
export const SAMPLES: FamilySamples = {
  'secrets.PlatformTokenConfig': {
    sample: {
      weight: 3,
      build: (stack, i) => {
        new PlatformTokenConfig(stack, `ptokcfg${i}`, { mount: `t-ptok-${i}`, address: 'https://platform.example.com', token: SecretValue.fromEnv('PLANTED_ENGINE_SECRET') });
      },
      count: (env, n) => countWhere(n, async (i) => (await secretsGet(env, `t-ptok-${i}/config`))?.data?.address === 'https://platform.example.com'),
    },
    full: {
      address: 'full-platform-token-config',
      build: (stack, world) => {
        new PlatformTokenConfig(stack, 'full-platform-token-config', { address: world.env.PLATFORM_ADDRESS, token: SecretValue.fromEnv('PLATFORM_TOKEN') });
      },
      defaultsKept: { mount: TOKENS_DEFAULT_MOUNT },
    },
    specFields: () => operation('### Platform-token engine (`{platform_mount}`)', 'Configure access'),
    props: {
      base: {},
      optional: { address: 'https://platform.example.com', token: SecretValue.unsafePlainText('t') },
      invalid: { mount: fc.constantFrom('/x', 'a/../b') },
    },
  },
  'secrets.PlatformTokenRole': {
    sample: {
      weight: 5,
      build: (stack, i) => { new PlatformTokenRole(stack, `ptok${i}`, { name: `t-role-${i}`, userId: `user-${i}`, ttl: '60m', maxTtl: '2h' }); },
      count: async (env) => (await secretsKeys(env, 'platform/role')).filter((k) => k.startsWith('t-role-')).length,
    },
    full: {
      address: 'full-platform-token-role',
      build: (stack) => {
        new PlatformTokenRole(stack, 'full-platform-token-role', { name: 'full-user', userId: 'admin', ttl: '1h', maxTtl: '2h' });
      },
      defaultsKept: {
        mount: TOKENS_DEFAULT_MOUNT,
        organization: 'a role issues one kind of token: organization and teamId conflict with userId (the service refuses both)',
        teamId: 'a role issues one kind of token: organization and teamId conflict with userId (the service refuses both)',
      },
    },
    specFields: () => operation('### Platform-token engine (`{platform_mount}`)', 'Create or update role'),
    props: {
      base: { name: 'ci', organization: 'acme' },
      invalid: { name: badSegmentName, ttl: badDuration },
    },
  },
  'secrets.PlatformTokenCredentials': {
    props: {
      base: { role: { mount: 'platform', roleName: 'ci' } },
      invalid: { role: fc.constantFrom({ mount: 'platform', roleName: 'a/b' }, { mount: 'platform', roleName: '' }, { mount: 'platform' }) },
    },
  },
};
