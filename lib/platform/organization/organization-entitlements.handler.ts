import { ApiError } from '../../core/http/api-error';
import { DataSourceHandler } from '../../core/engine/handler';
import { dataSourceMetadata } from '../../core/schema';
import { platformClient } from '../handler-util';
import { ORGANIZATION_ENTITLEMENTS } from './organization-entitlements.schema';

/** `platform.OrganizationEntitlements`: the entitlement set, every attribute camelCased, plus `id`. */
export const organizationEntitlementsHandler: DataSourceHandler = {
  ...dataSourceMetadata(ORGANIZATION_ENTITLEMENTS),
  async read(ctx, spec): Promise<Record<string, unknown>> {
    const name = String(spec.organization);
    const set = await platformClient(ctx).organizations.entitlementSet(name);
    if (!set) {
      throw new ApiError(404, [`organization "${name}" not found or not visible to the token`], 'GET',
        `/api/v2/organizations/${name}/entitlement-set`, 'platform', ctx.address, 'PLATFORM_TOKEN');
    }
    const { type: _type, selfLink: _self, ...outputs } = set;
    return outputs;
  },
};
