import { KindSchema } from '../../core/schema';
import { SEGMENT_NAME, SEGMENT_NAME_RULE } from '../shared/engine-fields';

/**
 * `secrets.PushMfaMethod`: the spec's configure body of `/identity/mfa/method/pushmfa`. The keys are
 * secrets the read answers: compared by HMAC, never shown. `push_info` reads back as `pushinfo`.
 */
export const PUSH_MFA_METHOD: KindSchema = {
  kind: 'secrets.PushMfaMethod',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    methodName: {
      type: 'string', required: true, pattern: SEGMENT_NAME,
      patternRule: SEGMENT_NAME_RULE,
    },
    secretKey: { type: 'secret', required: true },
    integrationKey: { type: 'secret', required: true },
    apiHostname: { type: 'string', required: true, pattern: /^[A-Za-z0-9.-]+(:\d+)?$/, patternRule: 'must be a host name' },
    usernameFormat: { type: 'string', default: '' },
    pushInfo: { type: 'string', default: '' },
    usePasscode: { type: 'boolean', default: false },
  },
  outputs: {
    methodId: { type: 'string' },
  },
  unmanaged: {
    method_id: 'the UUID the service assigns: in the path of an update, the output `methodId`',
  },
};
