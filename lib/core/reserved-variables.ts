import { API_DEFAULTS } from './api-defaults';
import { ApiName } from './model';

/**
 * The variables that hold each API's token: converge's own, and those of the real servers' own tools
 * that a CI job may hold beside them (Terraform's `TFE_TOKEN`, OpenBao's and Vault's, Consul's).
 */
export const API_TOKEN_VARIABLES: Record<ApiName, readonly string[]> = {
  platform: [API_DEFAULTS.platform.tokenEnv, 'TFE_TOKEN', 'ATLAS_TOKEN'],
  secrets: [API_DEFAULTS.secrets.tokenEnv, 'VAULT_TOKEN', 'BAO_TOKEN'],
  mesh: [API_DEFAULTS.mesh.tokenEnv, 'CONSUL_HTTP_TOKEN'],
};

/** Every API's token variables. */
export const ALL_TOKEN_VARIABLES: ReadonlySet<string> = new Set(Object.values(API_TOKEN_VARIABLES).flat());

/**
 * Why the synthesized output may never name `name` as a place to read a value from, whatever the
 * command line allows: converge's own settings (`CONVERGE_*`: the state key, the state backend) and
 * the state backend's PostgreSQL settings (`PG*`: its password). Undefined when it may.
 */
export function convergeOwnVariable(name: string): string | undefined {
  if (name.startsWith('CONVERGE_')) return `${name} is converge's own setting (CONVERGE_*), never an input of the app`;
  if (name.startsWith('PG')) return `${name} is a PostgreSQL setting (PG*) of the state backend, never an input of the app`;
  return undefined;
}

/**
 * Why a provider of `api` may never read its token (or its address, `role: 'address'`) from `name`;
 * undefined when it may. A provider never reads another API's token (it would send it to its own
 * address), and an address is never read from a token variable (an address is printed and sent in clear).
 */
export function forbiddenProviderVariable(api: ApiName, name: string, role: 'token' | 'address'): string | undefined {
  const own = convergeOwnVariable(name);
  if (own) return own;
  if (role === 'address' && ALL_TOKEN_VARIABLES.has(name)) return `${name} holds an API token, never an address`;
  for (const [other, names] of Object.entries(API_TOKEN_VARIABLES)) {
    if (other !== api && names.includes(name)) return `${name} holds the ${other} API's token, never the ${api} API's`;
  }
  return undefined;
}
