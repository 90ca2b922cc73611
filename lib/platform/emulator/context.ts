import { Clock } from '../../core/clock';
import { Edition, OrganizationRecord, PlatformState, TokenRecord, UserRecord } from './state';

/** What every platform route sees: the state, the edition, the emulator's clock and the authenticated caller. */
export interface PlatformContext {
  readonly state: PlatformState;
  readonly edition: Edition;
  /** What time it is (the steps of a no-code upgrade run move on by it). */
  readonly clock: Pick<Clock, 'now'>;
  readonly caller: { readonly token: TokenRecord; readonly user: UserRecord };
}

/** The organization named `name` when the caller may see it; absence and no access look alike (404). */
export function visibleOrganization(ctx: PlatformContext, name: string): OrganizationRecord | undefined {
  const org = Object.values(ctx.state.organizations).find((o) => o.name === name);
  return org && canAccess(ctx, org) ? org : undefined;
}

export function canAccess(ctx: PlatformContext, org: OrganizationRecord): boolean {
  const t = ctx.caller.token;
  if (t.kind === 'user') return org.owners.includes(t.userId);
  return t.organizationId === org.externalId;
}

/** Owners (by user token) and organization tokens manage the organization; team tokens read it. */
export function canManage(ctx: PlatformContext, org: OrganizationRecord): boolean {
  return canAccess(ctx, org) && ctx.caller.token.kind !== 'team';
}

/** Permissions a team token may carry (user tokens of owners and organization tokens have them all). */
export type Permission = 'manage-vcs' | 'manage-agent-pools' | 'manage-modules' | 'create-workspaces';

/** Whether the caller may do `permission` in the organization. */
export function canDo(ctx: PlatformContext, org: OrganizationRecord, permission: Permission): boolean {
  if (!canAccess(ctx, org)) return false;
  const t = ctx.caller.token;
  if (t.kind !== 'team') return true;
  return (t.permissions ?? []).includes(permission);
}

/** Whether the organization has an entitlement; gated endpoints answer 404 without it. */
export function entitled(org: OrganizationRecord, entitlement: string): boolean {
  return org.entitlements[entitlement] === true;
}

/** The organization (by external id) when the caller may see it and, if given, it holds the entitlement. */
export function visibleOrganizationById(ctx: PlatformContext, externalId: string, entitlement?: string): OrganizationRecord | undefined {
  const org = ctx.state.organizations[externalId];
  if (!org || !canAccess(ctx, org)) return undefined;
  if (entitlement && !entitled(org, entitlement)) return undefined;
  return org;
}
