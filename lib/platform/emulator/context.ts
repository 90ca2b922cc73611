import { Edition, OrganizationRecord, PlatformState, TokenRecord, UserRecord } from './state';

/** What every platform route sees: the state, the edition and the authenticated caller. */
export interface PlatformContext {
  readonly state: PlatformState;
  readonly edition: Edition;
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
