import { SecretsMount } from '../../lib/secrets/sys/secrets-mount';
import { SecretsPolicy } from '../../lib/secrets/sys/secrets-policy';
import { FullSample } from './full-samples';

/** A full sample of each kind of the secrets service's system backend (mounts, policies). */
export const SECRETS_SYS_FULL_SAMPLES: Record<string, FullSample> = {
  'secrets.SecretsMount': {
    address: 'full-secrets-mount',
    build: (stack) => {
      new SecretsMount(stack, 'full-secrets-mount', {
        path: 'full/kv', type: 'kv', description: 'full sample', defaultLeaseTtl: '1h', maxLeaseTtl: '24h', options: { version: '2' },
      });
    },
  },
  'secrets.SecretsPolicy': {
    address: 'full-secrets-policy',
    build: (stack) => {
      new SecretsPolicy(stack, 'full-secrets-policy', { name: 'full-policy', policy: 'path "secret/data/full/*" {\n  capabilities = ["read", "list"]\n}\n' });
    },
  },
};
