import { LOOKUP_PREFIX } from '../core/model';
import { OrganizationPermission, PlatformPermissions } from './shared/kind-permissions';
import { PLATFORM_KINDS } from './kinds';

export type { OrganizationPermission } from './shared/kind-permissions';

/** Each platform kind's permissions, as its handler declares them (lookups by `lookup:<kind>`). */
function permissionsByKind(): Map<string, PlatformPermissions> {
  return new Map([...PLATFORM_KINDS.resources, ...PLATFORM_KINDS.dataSources].map((h) => [h.kind, h.permissions]));
}

/**
 * What the platform token needs for each kind through plan, apply and destroy, as text for `converge policy`:
 * collected from the kinds' handlers (a lookup, `lookup:<kind>`, from its resource kind's).
 */
export const PLATFORM_PERMISSIONS: Record<string, (spec: Record<string, unknown>) => string> = Object.fromEntries(
  [...permissionsByKind()].flatMap(([kind, p]) => [[kind, p.needs], ...(p.lookup ? [[LOOKUP_PREFIX + kind, p.lookup]] : [])]),
);

/** What the preflight asks of the organization's `permissions` for each kind's writes (the same permissions as the text above). */
export const PLATFORM_ORGANIZATION_PERMISSIONS: Record<string, (spec: Record<string, unknown>, deletes: boolean, creates: boolean) => OrganizationPermission[]> =
  Object.fromEntries([...permissionsByKind()].flatMap(([kind, p]) => (p.organization ? [[kind, p.organization]] : [])));
