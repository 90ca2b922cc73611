import { ApiError } from '../../core/http/api-error';
import { dataSourceMetadata } from '../../core/schema';
import { platformClient } from '../shared/handler-util';
import { ORGANIZATION_ENTITLEMENTS } from './organization-entitlements.schema';
import { PlatformDataSourceHandler } from '../shared/kind-permissions';

/** `platform.OrganizationEntitlements`: the entitlement set, every attribute camelCased, plus `id`. */
export const organizationEntitlementsHandler: PlatformDataSourceHandler = {
  ...dataSourceMetadata(ORGANIZATION_ENTITLEMENTS),
  permissions: {
    needs: (s) => `read organization "${String(s.organization ?? s.name)}"`,
  },
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
