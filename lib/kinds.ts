import { registerDomain } from './core/engine/registry';
import { MESH_KINDS } from './mesh/kinds';
import { PLATFORM_KINDS } from './platform/kinds';
import { SECRETS_KINDS } from './secrets/kinds';

/** Registers the kinds of the three APIs with the engine (the CLI does so before it plans; tests that drive handlers too). */
export function registerAllKinds(): void {
  for (const domain of [PLATFORM_KINDS, SECRETS_KINDS, MESH_KINDS]) registerDomain(domain);
}
