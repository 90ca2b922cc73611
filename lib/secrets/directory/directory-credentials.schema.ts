import { KindSchema } from '../../core/schema';

/** `secrets.DirectoryCredentials`: `GET {mount}/creds/<role>`, the managed account's current and last password. */
export const DIRECTORY_CREDENTIALS: KindSchema = {
  kind: 'secrets.DirectoryCredentials',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    mount: { type: 'string' },
    roleName: { type: 'string' },
  },
  outputs: {
    username: { type: 'string' },
    currentPassword: { type: 'string', sensitive: true },
    lastPassword: { type: 'string', sensitive: true },
  },
};
