import { Router } from '../../core/emulator-kit/router';
import { EmuRequest } from '../../core/emulator-kit/types';
import { canManage, PlatformContext, visibleOrganization } from '../emulator/context';
import { ApiFailure, BASE, doc, listDocument, notFound, pageRequest, unprocessable } from '../emulator/jsonapi';
import { DataRetentionPolicyRecord, newId, OrganizationRecord } from '../emulator/state';

export const DRP_DELETE_OLDER = 'data-retention-policy-delete-olders';
export const DRP_DONT_DELETE = 'data-retention-policy-dont-deletes';

/**
 * The endpoints of the self-hosted edition only: module producers and the data retention policy.
 * On the hosted edition they answer 404.
 */
export function registerSelfHostedRoutes(router: Router<PlatformContext>): void {
  router.add('GET', `${BASE}/organizations/:org/relationships/module-producers`, (req, p, ctx) => {
    const org = selfHostedOrg(ctx, p.org);
    const producers = (ctx.state.moduleProducers[org.externalId] ?? [])
      .map((id) => ctx.state.organizations[id]).filter((o): o is OrganizationRecord => o !== undefined)
      .sort((a, b) => a.name.localeCompare(b.name));
    return listDocument(producers, pageRequest(req.query, false), req, producerResource);
  });
  const path = `${BASE}/organizations/:org/relationships/data-retention-policy`;
  router.add('GET', path, (_req, p, ctx) => {
    const org = selfHostedOrg(ctx, p.org);
    // The explicit policy of the organization, else the installation default it inherits.
    const policy = ctx.state.dataRetentionPolicies[org.externalId] ?? ctx.state.installationDataRetentionPolicy;
    return doc(200, { data: policyResource(policy) });
  });
  router.add('POST', path, (req, p, ctx) => {
    const org = selfHostedOrg(ctx, p.org);
    if (!canManage(ctx, org)) return notFound();
    // An explicit policy of the same type is updated in place (its id kept); another type replaces it.
    const current = ctx.state.dataRetentionPolicies[org.externalId];
    const policy = readPolicy(req, newId(ctx.state, 'drp'));
    if (current && current.type === policy.type) (policy as { id: string }).id = current.id;
    ctx.state.dataRetentionPolicies[org.externalId] = policy;
    return doc(201, { data: policyResource(policy) });
  });
  router.add('DELETE', path, (_req, p, ctx) => {
    const org = selfHostedOrg(ctx, p.org);
    if (!canManage(ctx, org)) return notFound();
    delete ctx.state.dataRetentionPolicies[org.externalId];
    return { status: 204 };
  });
}

function selfHostedOrg(ctx: PlatformContext, name: string): OrganizationRecord {
  const org = ctx.edition === 'self-hosted' ? visibleOrganization(ctx, name) : undefined;
  if (!org) throw new ApiFailure(notFound());
  return org;
}

/** A request body `{data: {type: <one of the two types>, attributes: {delete-older-than-n-days}}}`. */
export function readPolicy(req: EmuRequest, id: string): DataRetentionPolicyRecord {
  let body: any;
  try {
    body = JSON.parse(req.body.toString('utf8') || 'null');
  } catch {
    throw new ApiFailure(unprocessable('the request body is not valid JSON'));
  }
  const d = body?.data;
  if (d?.type === DRP_DONT_DELETE) return { id, type: DRP_DONT_DELETE };
  if (d?.type !== DRP_DELETE_OLDER) throw new ApiFailure(unprocessable(`data.type must be "${DRP_DELETE_OLDER}" or "${DRP_DONT_DELETE}"`));
  const n = d.attributes?.['delete-older-than-n-days'];
  if (!Number.isInteger(n) || n < 1) throw new ApiFailure(unprocessable('delete-older-than-n-days must be a positive integer'));
  return { id, type: DRP_DELETE_OLDER, deleteOlderThanNDays: n };
}

export function policyResource(p: DataRetentionPolicyRecord): Record<string, unknown> {
  return {
    id: p.id,
    type: p.type,
    attributes: p.type === DRP_DELETE_OLDER ? { 'delete-older-than-n-days': p.deleteOlderThanNDays } : {},
  };
}

export function producerResource(o: OrganizationRecord): Record<string, unknown> {
  return {
    id: o.name,
    type: 'organizations',
    attributes: { name: o.name, 'external-id': o.externalId },
    links: { self: `${BASE}/organizations/${encodeURIComponent(o.name)}` },
  };
}

