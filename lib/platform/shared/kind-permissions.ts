import { DataSourceHandler, ResourceHandler, Spec } from '../../core/engine/handler';

/** A kind's writes need this `permissions` key of the organization they write in (its `permissions` attribute). */
export interface OrganizationPermission {
  readonly organization: string;
  readonly permission: string;
}

/**
 * What the platform token needs for one kind, declared by the kind's handler (the platform grants permissions
 * through teams and token kinds, not a policy document). `converge policy` prints `needs` (and `lookup`); the
 * preflight asks the organization's `permissions` for `organization`.
 */
export interface PlatformPermissions {
  /** Through plan, apply and destroy, as text for `converge policy`. */
  readonly needs: (spec: Spec) => string;
  /** For a lookup of an existing object (`fromName`, …): read at plan time by the id `converge import` takes. */
  readonly lookup?: (spec: Spec) => string;
  /**
   * The same permissions as `needs`, as the platform reports them, for the kind's writes. An organization being
   * created has none to ask (its creator owns it).
   */
  readonly organization?: (spec: Spec, deletes: boolean, creates: boolean) => OrganizationPermission[];
}

/** A platform resource handler, with the permissions its kind needs. */
export type PlatformResourceHandler = ResourceHandler & { readonly permissions: PlatformPermissions };

/** A platform data source handler, with the permissions its kind needs. */
export type PlatformDataSourceHandler = DataSourceHandler & { readonly permissions: PlatformPermissions };

/** The organization named by a spec field, when it is known at plan time (not a reference to one this apply creates). */
export function namedOrganization(v: unknown): string | undefined {
  return typeof v === 'string' && !v.startsWith('${') ? v : undefined;
}

/** The permission in the spec's `organization`, when it is known at plan time. */
export function inOrganization(spec: Spec, permission: string): OrganizationPermission[] {
  const organization = namedOrganization(spec.organization);
  return organization ? [{ organization, permission }] : [];
}

/** The organization part of a lookup id `<organization>/<name>`. */
export function organizationOfLookup(spec: Spec): string {
  return String(spec.id).split('/')[0];
}
