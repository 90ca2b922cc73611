import { SecretsTokenHeader } from './token-header';

/** The environment variable choosing the token header when the provider does not (`tokenHeader`). */
export const TOKEN_HEADER_VARIABLE = 'SECRETS_TOKEN_HEADER';

const BY_NAME: Record<string, SecretsTokenHeader> = {
  'x-secrets-token': SecretsTokenHeader.SECRETS_TOKEN,
  'x-vault-token': SecretsTokenHeader.VAULT_TOKEN,
  'authorization': SecretsTokenHeader.AUTHORIZATION_BEARER,
  'bearer': SecretsTokenHeader.AUTHORIZATION_BEARER,
};

/**
 * The header a setting names (case-insensitive: `X-Secrets-Token`, `X-Vault-Token`, `Authorization`
 * or `Bearer`), the default when unset; an error naming `source` for anything else.
 */
export function parseTokenHeader(value: string | undefined, source: string): SecretsTokenHeader {
  if (value === undefined || value.trim() === '') return SecretsTokenHeader.SECRETS_TOKEN;
  const h = BY_NAME[value.trim().toLowerCase()];
  if (!h) {
    throw new Error(`${source} is "${value}": the secrets token header must be X-Secrets-Token (the spec's, the default), ` +
      'X-Vault-Token or Authorization (sent as "Authorization: Bearer <token>")');
  }
  return h;
}
