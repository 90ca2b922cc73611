import { DomainMigrations } from '../../core/migrate/terraform-mapping';
import { VAULT_APPROLE_ROLE } from './vault-approle-role';
import { VAULT_AUTH_BACKEND } from './vault-auth-backend';
import { VAULT_DATABASE_CONNECTION, VAULT_DATABASE_ROLE, VAULT_DATABASE_STATIC_ROLE } from './vault-database';
import { VAULT_KV_SECRET_V2 } from './vault-kv-secret-v2';
import { VAULT_MOUNT } from './vault-mount';
import { VAULT_POLICY } from './vault-policy';

/** The vault provider's resource types that `converge migrate terraform` takes (a new kind adds its mapping here). */
export const SECRETS_MIGRATIONS: DomainMigrations = [
  VAULT_MOUNT, VAULT_AUTH_BACKEND, VAULT_POLICY, VAULT_KV_SECRET_V2, VAULT_DATABASE_CONNECTION, VAULT_DATABASE_ROLE, VAULT_DATABASE_STATIC_ROLE, VAULT_APPROLE_ROLE,
];
