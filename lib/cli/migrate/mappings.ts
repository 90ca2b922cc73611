import { TerraformMapping } from '../../core/migrate/terraform-mapping';
import { MESH_MIGRATIONS } from '../../mesh/migrate';
import { PLATFORM_MIGRATIONS } from '../../platform/migrate';
import { SECRETS_MIGRATIONS } from '../../secrets/migrate';

/** Every provider resource type converge takes, by type (each domain lists its own beside its kinds). */
export function terraformMappings(): ReadonlyMap<string, TerraformMapping> {
  return new Map([...PLATFORM_MIGRATIONS, ...SECRETS_MIGRATIONS, ...MESH_MIGRATIONS].map((m) => [m.type, m]));
}

/** The providers whose resources converge may take; any other provider's resource is listed as not taken. */
export const MIGRATED_PROVIDERS = ['tfe', 'vault', 'consul'];
