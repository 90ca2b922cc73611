import { DomainMigrations } from '../../core/migrate/terraform-mapping';
import { CONSUL_ACL_POLICY } from './consul-acl-policy';
import { CONSUL_ACL_ROLE } from './consul-acl-role';
import { CONSUL_ACL_TOKEN } from './consul-acl-token';
import { CONSUL_CONFIG_ENTRY } from './consul-config-entry';

/** The consul provider's resource types that `converge migrate terraform` takes (a new kind adds its mapping here). */
export const MESH_MIGRATIONS: DomainMigrations = [CONSUL_CONFIG_ENTRY, CONSUL_ACL_POLICY, CONSUL_ACL_ROLE, CONSUL_ACL_TOKEN];
