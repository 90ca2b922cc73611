import { DomainMigrations } from '../../core/migrate/terraform-mapping';
import { VAULT_DATABASE_CONNECTION, VAULT_DATABASE_ROLE, VAULT_DATABASE_STATIC_ROLE } from './vault-database';
import { VAULT_KV_SECRET_V2 } from './vault-kv-secret-v2';

/** The vault provider's resource types that `converge migrate terraform` takes (a new kind adds its mapping here). */
export const SECRETS_MIGRATIONS: DomainMigrations = [VAULT_KV_SECRET_V2, VAULT_DATABASE_CONNECTION, VAULT_DATABASE_ROLE, VAULT_DATABASE_STATIC_ROLE];
