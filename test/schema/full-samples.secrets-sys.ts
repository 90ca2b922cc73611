import { SecretsMount } from '../../lib/secrets/sys/secrets-mount';
import { SecretsPolicy } from '../../lib/secrets/sys/secrets-policy';
import { AppRoleRole } from '../../lib/secrets/approle/approle-role';
import { AuthBackend } from '../../lib/secrets/sys/auth-backend';
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
  'secrets.AuthBackend': {
    address: 'full-auth-backend',
    build: (stack) => {
      new AuthBackend(stack, 'full-auth-backend', {
        path: 'full-approle', type: 'approle', description: 'full sample', defaultLeaseTtl: '1h', maxLeaseTtl: '24h', options: { flavour: 'full' },
      });
    },
  },
  'secrets.AppRoleRole': {
    address: 'full-approle-role',
    build: (stack) => {
      const method = new AuthBackend(stack, 'full-approle-role-method', { path: 'full-approle-roles', type: 'approle' });
      new AppRoleRole(stack, 'full-approle-role', {
        authBackend: method, name: 'full-role', tokenPolicies: ['a', 'b'], tokenTtl: '20m', tokenMaxTtl: '1h', tokenNumUses: 3,
        tokenType: 'service', bindSecretId: false, secretIdTtl: '10m', secretIdNumUses: 2,
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
