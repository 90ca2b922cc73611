import { DomainMigrations } from '../../core/migrate/terraform-mapping';
import { CONSUL_CONFIG_ENTRY } from './consul-config-entry';

/** The consul provider's resource types that `converge migrate terraform` takes (a new kind adds its mapping here). */
export const MESH_MIGRATIONS: DomainMigrations = [CONSUL_CONFIG_ENTRY];
