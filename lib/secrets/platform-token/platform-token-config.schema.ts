import { KindSchema } from '../../core/schema';
import { mountField } from '../shared/engine-fields';

/** The hosted platform's address, the service's default. */
export const DEFAULT_PLATFORM_ADDRESS = 'https://app.terraform.io';

/** `secrets.PlatformTokenConfig`: the body of `POST {mount}/config`; the token is never read back. */
export const PLATFORM_TOKEN_CONFIG: KindSchema = {
  kind: 'secrets.PlatformTokenConfig',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    mount: mountField('platform'),
    address: {
      type: 'string', default: DEFAULT_PLATFORM_ADDRESS, pattern: /^https?:\/\/[^/\s]+/,
      patternRule: 'must be an http(s) URL such as https://app.terraform.io',
    },
    token: { type: 'secret', writeOnly: true },
  },
};
