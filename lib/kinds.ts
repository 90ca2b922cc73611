/* eslint-disable @typescript-eslint/no-require-imports */
import { DomainKinds, registerDomain, registerDomainLoader } from './core/engine/registry';
// The APIs' profiles (token headers, standard variables) are small and every run needs them: loaded at once.
import './platform/api-profile';
import './secrets/api-profile';
import './mesh/api-profile';

/** Each API's kinds, by the prefix of its kinds' names; required only when called. */
const DOMAINS: Record<string, () => DomainKinds> = {
  platform: () => (require('./platform/kinds') as typeof import('./platform/kinds')).PLATFORM_KINDS,
  secrets: () => (require('./secrets/kinds') as typeof import('./secrets/kinds')).SECRETS_KINDS,
  mesh: () => (require('./mesh/kinds') as typeof import('./mesh/kinds')).MESH_KINDS,
};

/** Registers the kinds of the three APIs with the engine (the package's entry does; tests that drive handlers too). */
export function registerAllKinds(): void {
  for (const load of Object.values(DOMAINS)) registerDomain(load());
}

/**
 * Registers the three APIs' kinds by name only (the CLI, issue 37): an API's handlers, schemas and clients are loaded
 * the first time a kind of it is asked for, by the app's synthesized output or by the state (a destroy of objects of
 * an API the app no longer uses loads it too).
 */
export function registerKindsOnDemand(): void {
  for (const [prefix, load] of Object.entries(DOMAINS)) registerDomainLoader(prefix, load);
}
