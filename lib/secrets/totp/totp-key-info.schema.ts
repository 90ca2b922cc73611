import { KindSchema } from '../../core/schema';
import { mountField } from '../shared/engine-fields';
import { TOTP_KEY_NAME } from './totp-key.schema';

/** `secrets.TotpKeyInfo`: a read of `/totp/keys/<name>` and the public fields it answers. */
export const TOTP_KEY_INFO: KindSchema = {
  kind: 'secrets.TotpKeyInfo',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    mount: mountField('totp'),
    name: TOTP_KEY_NAME,
  },
  outputs: {
    issuer: { type: 'string' },
    accountName: { type: 'string' },
    algorithm: { type: 'string' },
    digits: { type: 'number' },
    period: { type: 'number' },
  },
};
