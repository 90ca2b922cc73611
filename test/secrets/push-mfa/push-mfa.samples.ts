import { SecretValue } from '../../../lib';
import { PushMfaMethod } from '../../../lib/secrets';
import { badSegmentName } from '../../reliability/prop-arbitraries';
import { parameters } from '../../schema/spec-field-readers';
import { secretsKeys } from '../../support/sample-world';
import { FamilySamples } from '../../support/samples';

/** The samples of the push-mfa family's kinds: see test/support/samples.ts. */
export const SAMPLES: FamilySamples = {
  'secrets.PushMfaMethod': {
    sample: {
      weight: 5,
      build: (stack, i) => {
        new PushMfaMethod(stack, `mfa${i}`, {
          methodName: `t-mfa-${i}`, secretKey: SecretValue.fromEnv('PLANTED_ENGINE_SECRET'), integrationKey: SecretValue.fromEnv('PLANTED_ENGINE_SECRET'),
          apiHostname: 'api-1.push.example.com',
        });
      },
      // Methods are known by id only: every method counts, so a duplicate shows.
      count: async (env) => (await secretsKeys(env, 'identity/mfa/method/pushmfa')).length,
    },
    full: {
      address: 'full-push-mfa-method',
      build: (stack) => {
        new PushMfaMethod(stack, 'full-push-mfa-method', {
          methodName: 'full-push', secretKey: SecretValue.unsafePlainText('full-secret-key'), integrationKey: SecretValue.unsafePlainText('full-integration-key'),
          apiHostname: 'api-full.push.example.com:8443', usernameFormat: '{{identity.entity.name}}', pushInfo: 'from=converge&full=1', usePasscode: true,
        });
      },
    },
    specFields: () => parameters('### Push-MFA method', 'Configure'),
    props: {
      base: { methodName: 'push', secretKey: SecretValue.unsafePlainText('sk'), integrationKey: SecretValue.unsafePlainText('ik'), apiHostname: 'api.push.example.com' },
      optional: { usernameFormat: '{{identity.entity.name}}', usePasscode: true },
      invalid: { methodName: badSegmentName },
    },
  },
};
