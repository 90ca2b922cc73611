/**
 * Default variables per API: where a construct without a provider reads its address and token.
 * Kept apart from the provider construct so that the engine reads them without loading cdktf.
 */
export const API_DEFAULTS: Record<string, { addressEnv: string; tokenEnv: string }> = {
  platform: { addressEnv: 'PLATFORM_ADDRESS', tokenEnv: 'PLATFORM_TOKEN' },
  secrets: { addressEnv: 'SECRETS_ADDR', tokenEnv: 'SECRETS_TOKEN' },
  mesh: { addressEnv: 'MESH_HTTP_ADDR', tokenEnv: 'MESH_HTTP_TOKEN' },
};
