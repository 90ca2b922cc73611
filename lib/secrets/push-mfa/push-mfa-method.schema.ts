import { KindSchema } from '../../core/schema';

/**
 * What the secrets service takes as the name of a method (a path segment): ASCII letters, digits,
 * `_`, `-` and `.`, starting and ending with a letter, digit or `_`.
 */
const SEGMENT_NAME = /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?$/;

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
      patternRule: 'must hold only letters, digits, "_", "-" and "." and start and end with a letter, digit or "_" (no spaces, "/", "%" or unicode)',
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
