import { KindSchema } from '../../core/schema';

/** `secrets.DatabaseStaticCredentials`: `GET {mount}/static-creds/<role>`, the static user's current password. */
export const DATABASE_STATIC_CREDENTIALS: KindSchema = {
  kind: 'secrets.DatabaseStaticCredentials',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    mount: { type: 'string' },
    roleName: { type: 'string' },
  },
  outputs: {
    username: { type: 'string' },
    password: { type: 'string', sensitive: true },
    lastServiceRotation: { type: 'string' },
    rotationPeriod: { type: 'number' },
    ttl: { type: 'number' },
  },
};
