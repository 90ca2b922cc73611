import { ApiProfile, apiProfiles, requireApiProfile, StandardVariables } from './http/api-profile';
import { ApiName } from './model';

// Which variables hold which API's token is each domain's word (its `api-profile.ts`): core applies
// the rules to the registered profiles and names no API itself.

/** Where a provider of `api` reads its address and token unless it names others: the API's standard variables. */
export function standardVariablesOf(api: ApiName): StandardVariables {
  return requireApiProfile(api).variables;
}

/**
 * The variables that hold an API's token: converge's own, and those of the real servers' own tools
 * that a CI job may hold beside them.
 */
function tokenVariablesOf(profile: ApiProfile): readonly string[] {
  return [profile.variables.tokenEnv, ...profile.toolTokenVariables ?? []];
}

/** Every registered API's token variables. */
export function allTokenVariables(): ReadonlySet<string> {
  return new Set(apiProfiles().flatMap(tokenVariablesOf));
}

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
  if (role === 'address' && allTokenVariables().has(name)) return `${name} holds an API token, never an address`;
  for (const other of apiProfiles()) {
    if (other.api !== api && tokenVariablesOf(other).includes(name)) return `${name} holds the ${other.api} API's token, never the ${api} API's`;
  }
  return undefined;
}
