/**
 * The HTTP header that carries the secrets token. The spec names `X-Secrets-Token`; a real OpenBao
 * (or Vault) reads `X-Vault-Token` or `Authorization: Bearer <token>` and answers a request whose
 * token it cannot see with 403 "permission denied".
 */
export enum SecretsTokenHeader {
  /** `X-Secrets-Token: <token>`, as the spec says (and the emulator reads). */
  SECRETS_TOKEN = 'X-Secrets-Token',
  /** `X-Vault-Token: <token>`, the header OpenBao's and Vault's own clients send. */
  VAULT_TOKEN = 'X-Vault-Token',
  /** `Authorization: Bearer <token>`, which OpenBao and Vault read as well. */
  AUTHORIZATION_BEARER = 'Authorization',
}
