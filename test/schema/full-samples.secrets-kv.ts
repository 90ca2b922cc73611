import { SecretValue } from '../../lib/core/constructs/secret-value';
import { KvEngineConfig } from '../../lib/secrets/kv/kv-engine-config';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { PushMfaMethod } from '../../lib/secrets/push-mfa/push-mfa-method';
import { TotpAlgorithm, TotpKey } from '../../lib/secrets/totp/totp-key';
import { FullSample } from './full-samples';

/**
 * The round trip's emulator mounts each engine at its default path only (another mount takes an
 * admin call outside the app): a mount other than the default is covered by kv-secret-lookup.e2e
 * (a KV engine at `kv/team`) and the engine e2e tests.
 */
const DEFAULT_MOUNT = 'the emulator of the round trip mounts the engine at its default path only (kv-secret-lookup.e2e covers another mount)';

/** A full sample of each secrets kind of the kv area. */
export const SECRETS_KV_FULL_SAMPLES: Record<string, FullSample> = {
  'secrets.KvSecret': {
    address: 'full-kv-secret',
    build: (stack) => {
      new KvSecret(stack, 'full-kv-secret', {
        path: 'full/app/db', data: { user: 'app', port: 5432, tls: true, password: SecretValue.unsafePlainText('full-sample-password') },
        customMetadata: { owner: 'full', team: 'platform' }, maxVersions: 5, casRequired: true, deleteVersionAfter: '1h30m',
      });
    },
    defaultsKept: { mount: DEFAULT_MOUNT },
  },
  'secrets.KvEngineConfig': {
    address: 'full-kv-engine-config',
    build: (stack) => {
      new KvEngineConfig(stack, 'full-kv-engine-config', { maxVersions: 7, casRequired: true, deleteVersionAfter: '768h' });
    },
    defaultsKept: { mount: DEFAULT_MOUNT },
  },
  'secrets.TotpKey': {
    address: 'full-totp-key',
    build: (stack) => {
      new TotpKey(stack, 'full-totp-key', {
        name: 'full-key', generate: true, issuer: 'Full', accountName: 'full@acme.io', algorithm: TotpAlgorithm.SHA512,
        digits: 8, period: 60, skew: 0, keySize: 32, exported: false, qrSize: 100,
      });
    },
    defaultsKept: {
      mount: DEFAULT_MOUNT,
      key: 'a generated key takes no key to import (the API refuses one with generate): TotpKey imports are covered by the engine e2e tests',
      url: 'a generated key takes no url to import (the API refuses one with generate)',
    },
  },
  'secrets.PushMfaMethod': {
    address: 'full-push-mfa-method',
    build: (stack) => {
      new PushMfaMethod(stack, 'full-push-mfa-method', {
        methodName: 'full-push', secretKey: SecretValue.unsafePlainText('full-secret-key'), integrationKey: SecretValue.unsafePlainText('full-integration-key'),
        apiHostname: 'api-full.push.example.com:8443', usernameFormat: '{{identity.entity.name}}', pushInfo: 'from=converge&full=1', usePasscode: true,
      });
    },
  },
};
