/** Importing this module registers every platform handler (the CLI imports it). */
import { registerDataSource, registerResource } from '../core/engine/registry';
import { organizationEntitlementsHandler } from './organization-entitlements.handler';
import { organizationHandler } from './organization.handler';

registerResource(organizationHandler);
registerDataSource(organizationEntitlementsHandler);
