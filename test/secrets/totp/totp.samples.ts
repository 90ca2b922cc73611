import fc from 'fast-check';
import { SecretValue } from '../../../lib';
import { TotpAlgorithm, TotpKey } from '../../../lib/secrets';
import { notEnum } from '../../reliability/prop-arbitraries';
import { DEFAULT_MOUNT } from '../../schema/full-sample-helpers';
import { parameters } from '../../schema/spec-field-readers';
import { secretsKeys } from '../../support/sample-world';
import { FamilySamples } from '../../support/samples';

/** The samples of the totp family's kinds: see test/support/samples.ts. */
export const SAMPLES: FamilySamples = {
  'secrets.TotpKey': {
    sample: {
      weight: 5,
      build: (stack, i) => { new TotpKey(stack, `totp${i}`, { name: `t-totp-${i}`, generate: true, issuer: 'Torture', accountName: `user-${i}` }); },
      count: async (env) => (await secretsKeys(env, 'totp/keys')).filter((k) => k.startsWith('t-totp-')).length,
    },
    full: {
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
    specFields: () => parameters('### TOTP engine', 'Create key'),
    props: {
      base: { name: 'login', key: SecretValue.unsafePlainText('JBSWY3DPEHPK3PXP') },
      optional: { digits: 8, period: 60, algorithm: TotpAlgorithm.SHA256, issuer: 'Acme', accountName: 'ops@acme.io' },
      secretVariants: [{ name: 'login-url', url: SecretValue.unsafePlainText('otpauth://totp/Acme:ops@acme.io?secret=JBSWY3DPEHPK3PXP&issuer=Acme') }],
      invalid: { name: fc.constantFrom('a/b', ''), digits: fc.constantFrom(5, 7, 9), period: fc.integer({ max: 0 }), algorithm: notEnum },
    },
  },
  'secrets.TotpKeyInfo': {
    props: { base: { name: 'login' }, optional: { mount: 'totp' }, invalid: { mount: fc.constantFrom('/x', 'a/../b') } },
  },
};
