import { Candidate, HandlerContext, Observed, PrefetchWant, Spec, Written } from '../../core/engine/handler';
import { ApiError } from '../../core/http/api-error';
import { resourceMetadata } from '../../core/schema';
import { AgentPool as AgentPoolDoc, AgentPoolAttributes, DELETABLE_AGENT_STATUSES } from './agent-pool-client';
import { fromClient, orgAndName, platformClient, prefetchByOrganization, toClient } from '../shared/handler-util';
import { AGENT_POOL } from './agent-pool.schema';
import { PlatformResourceHandler, inOrganization, organizationOfLookup } from '../shared/kind-permissions';

/**
 * A pool as the plan compares it, in the organization that holds it: allowed workspaces are
 * identifiers; a server that does not report them (no `allowed-workspaces` relationship) leaves
 * them to be compared with the last apply.
 */
function observedOf(p: AgentPoolDoc, organization: string | undefined): Observed & { fields: Spec } {
  const allowed = Array.isArray(p.allowedWorkspaces) ? p.allowedWorkspaces.map((w) => w.id) : undefined;
  const fields: Spec = { organization, ...fromClient(AGENT_POOL, { ...p, allowedWorkspaces: allowed }) };
  if (!allowed) delete fields.allowedWorkspaces;
  return { fields, outputs: outputsOf(p), id: p.id };
}

function attributesOf(spec: Spec): AgentPoolAttributes & { name: string } {
  return toClient(AGENT_POOL, spec) as unknown as AgentPoolAttributes & { name: string };
}

function outputsOf(p: AgentPoolDoc): Record<string, unknown> {
  return { id: p.id, name: p.name, agentCount: p.agentCount };
}

/** The pool id of an id in state: `apool-…`, or `<organization>/<name>` from an import. */
async function poolId(ctx: HandlerContext, id: string): Promise<string | undefined> {
  const named = orgAndName(id);
  if (!named) return id;
  return findByName(ctx, named.organization, named.name);
}

async function findByName(ctx: HandlerContext, organization: string, name: string): Promise<string | undefined> {
  return (await findPoolByName(ctx, organization, name))?.id;
}

async function findPoolByName(ctx: HandlerContext, organization: string, name: string): Promise<AgentPoolDoc | undefined> {
  const api = platformClient(ctx).agentPools;
  const org = await platformClient(ctx).organizations.show(organization);
  if (!org) return undefined;
  for await (const p of api.iterate(organization, { q: name })) if (p.name === name) return p;
  return undefined;
}

/** Deletes the pool's agents that may be deleted (unknown, errored, exited); answers how many. */
async function deleteInactive(ctx: HandlerContext, id: string): Promise<number> {
  const api = platformClient(ctx).agentPools;
  const doomed: string[] = [];
  for await (const a of api.iterateAgents(id)) if (DELETABLE_AGENT_STATUSES.includes(a.status)) doomed.push(a.id);
  for (const a of doomed) await api.deleteAgent(a);
  return doomed.length;
}

async function hasInactive(ctx: HandlerContext, id: string): Promise<boolean> {
  for await (const a of platformClient(ctx).agentPools.iterateAgents(id)) if (DELETABLE_AGENT_STATUSES.includes(a.status)) return true;
  return false;
}

/**
 * `platform.AgentPool`: identity is `apool-…`; found by its name (unique in the organization)
 * after a crash. A change of organization replaces it. `deleteInactiveAgents` (when asked for) reads as
 * false while the pool holds deletable agents, so that the plan shows an update and the apply deletes them.
 */
export const agentPoolHandler: PlatformResourceHandler = {
  ...resourceMetadata(AGENT_POOL),
  permissions: {
    needs: (s) => `manage agent pools in organization "${String(s.organization)}" (the agents entitlement)`,
    lookup: (s) => `read the agent pools of organization "${organizationOfLookup(s)}" (the agents entitlement)`,
    organization: (s) => inOrganization(s, 'can-update-agent-pools'),
  },
  destroyWarning: 'deleting an agent pool deletes its agents and moves the workspaces that use it off agent execution',

  naturalId(): undefined {
    return undefined;
  },

  uniqueFindKey: true,

  async find(ctx, spec): Promise<Candidate[]> {
    const p = await findPoolByName(ctx, String(spec.organization), String(spec.name));
    return p ? [{ id: p.id, createdAt: p.createdAt }] : [];
  },

  importId(id: string): string {
    if (/^apool-[A-Za-z0-9]+$/.test(id) || orgAndName(id)) return id;
    throw new Error(`agent pool import id "${id}" must be a pool id (apool-…) or <organization>/<pool name>`);
  },

  /**
   * Where an organization holds two or more of the pools wanted, one list of its pools answers them
   * (unless the cleanup of inactive agents is asked for: that reads each pool's agents).
   */
  async prefetch(ctx, wanted: readonly PrefetchWant[]) {
    const plain = wanted.filter((w) => w.desired.deleteInactiveAgents !== true && w.prior?.spec.deleteInactiveAgents !== true);
    return prefetchByOrganization(plain, async (organization) => {
      const found = new Map<string, Observed>();
      for await (const p of platformClient(ctx).agentPools.iterate(organization)) found.set(p.id, observedOf(p, organization));
      return found;
    });
  },

  async read(ctx, id, desired, prior): Promise<Observed | undefined> {
    // Where to look first and whether the cleanup is asked for: the app's spec, else the last apply's.
    const hint = desired ?? prior?.spec;
    // Where the pool was last applied is where it most likely is (the app may be renaming it now).
    const found = await locate(ctx, id, prior?.spec ?? desired);
    if (!found) return undefined;
    const { pool: p, organization } = found;
    const observed = observedOf(p, organization);
    // Not a setting the API holds but an action: only where the app (or the last apply) asks for the
    // cleanup does the pool read as "done" (true) or "to do" (false); elsewhere it is compared with the last apply.
    if (hint?.deleteInactiveAgents === true) observed.fields.deleteInactiveAgents = !(await hasInactive(ctx, p.id));
    return observed;
  },

  async create(ctx, spec): Promise<Written> {
    const p = await platformClient(ctx).agentPools.create(String(spec.organization), attributesOf(spec));
    return { id: p.id, outputs: outputsOf(p) };
  },

  async update(ctx, id, spec): Promise<Written> {
    const resolved = (await poolId(ctx, id)) ?? id;
    const p = await platformClient(ctx).agentPools.update(resolved, attributesOf(spec));
    // The PATCH answers the pool: read it again only when agents were deleted (its agent count changed).
    if (spec.deleteInactiveAgents === true && await deleteInactive(ctx, resolved) > 0) {
      return { id: resolved, outputs: outputsOf((await platformClient(ctx).agentPools.show(resolved)) ?? p) };
    }
    return { id: resolved, outputs: outputsOf(p) };
  },

  async delete(ctx, id): Promise<void> {
    const resolved = await poolId(ctx, id);
    if (resolved) await platformClient(ctx).agentPools.destroy(resolved);
  },
};

/**
 * A pool and the organization that really holds it (the pool document does not name it). The
 * hint (desired or last-applied spec) says where to look first, in one list request that answers
 * the whole pool; a pool not there is read by id and searched among the organizations.
 */
async function locate(ctx: HandlerContext, id: string, hint?: Spec): Promise<{ pool: AgentPoolDoc; organization?: string } | undefined> {
  const named = orgAndName(id);
  if (named) {
    const pool = await poolIn(ctx, named.organization, named.name, (p) => p.name === named.name);
    return pool && { pool, organization: named.organization };
  }
  const hinted = typeof hint?.organization === 'string' ? hint.organization : undefined;
  if (hinted && typeof hint?.name === 'string') {
    const pool = await poolIn(ctx, hinted, hint.name, (p) => p.id === id);
    if (pool) return { pool, organization: hinted };
  }
  const pool = await platformClient(ctx).agentPools.show(id);
  if (!pool) return undefined;
  // Renamed since (the app renames it in place): still in the hinted organization, under its real name.
  if (hinted && hint?.name !== pool.name && await poolIn(ctx, hinted, pool.name, (p) => p.id === id)) return { pool, organization: hinted };
  return { pool, organization: await organizationOf(ctx, pool, hinted) };
}

/** The pool of an organization matching `test` among those whose name contains `name`; undefined when the organization is gone. */
async function poolIn(ctx: HandlerContext, organization: string, name: string, test: (p: AgentPoolDoc) => boolean): Promise<AgentPoolDoc | undefined> {
  try {
    for await (const p of platformClient(ctx).agentPools.iterate(organization, { q: name })) if (test(p)) return p;
  } catch (e) {
    // An organization that is gone (or lost the agents entitlement) holds no pool.
    if (!(e instanceof ApiError && e.status === 404)) throw e;
  }
  return undefined;
}

/** The organization of a pool, searched among the organizations the token sees. */
async function organizationOf(ctx: HandlerContext, pool: AgentPoolDoc, searched?: string): Promise<string | undefined> {
  for await (const org of platformClient(ctx).organizations.iterate()) {
    if (org.name !== searched && await poolIn(ctx, org.name, pool.name, (p) => p.id === pool.id)) return org.name;
  }
  return undefined;
}
