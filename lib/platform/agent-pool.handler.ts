import { Candidate, HandlerContext, Observed, ResourceHandler, Spec, Written } from '../core/engine/handler';
import { AgentPool as AgentPoolDoc, DELETABLE_AGENT_STATUSES } from './client/agent-pools';
import { orgAndName, platformClient, sortedStrings } from './handler-util';

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
 * after a crash. `deleteInactiveAgents` reads as false while the pool holds deletable agents, so
 * that the plan shows an update and the apply deletes them.
 */
export const agentPoolHandler: ResourceHandler = {
  kind: 'platform.AgentPool',
  api: 'platform',
  replaceFields: ['organization'],
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

  async read(ctx, id, desired): Promise<Observed | undefined> {
    const resolved = await poolId(ctx, id);
    const p = resolved && await platformClient(ctx).agentPools.show(resolved);
    if (!p) return undefined;
    // The pool document does not name its organization: the import id or the desired spec does; else search.
    const org = orgAndName(id)?.organization ?? (desired?.organization as string | undefined) ?? await organizationOf(ctx, p.id);
    const wantCleanup = desired?.deleteInactiveAgents === true;
    const fields: Spec = {
      organization: org,
      name: p.name,
      organizationScoped: p.organizationScoped,
      allowedWorkspaces: sortedStrings(p.allowedWorkspaces.map((w) => w.id)),
      deleteInactiveAgents: wantCleanup ? !(await hasInactive(ctx, p.id)) : (desired?.deleteInactiveAgents ?? false),
    };
    return { fields, outputs: outputsOf(p), id: p.id };
  },

  async create(ctx, spec): Promise<Written> {
    const p = await platformClient(ctx).agentPools.create(String(spec.organization), {
      name: spec.name as string, organizationScoped: spec.organizationScoped as boolean, allowedWorkspaces: sortedStrings(spec.allowedWorkspaces),
    });
    return { id: p.id, outputs: outputsOf(p) };
  },

  async update(ctx, id, spec): Promise<Written> {
    const resolved = (await poolId(ctx, id)) ?? id;
    const p = await platformClient(ctx).agentPools.update(resolved, {
      name: spec.name as string, organizationScoped: spec.organizationScoped as boolean, allowedWorkspaces: sortedStrings(spec.allowedWorkspaces),
    });
    if (spec.deleteInactiveAgents === true) await deleteInactive(ctx, resolved);
    const after = await platformClient(ctx).agentPools.show(resolved);
    return { id: resolved, outputs: outputsOf(after ?? p) };
  },

  async delete(ctx, id): Promise<void> {
    const resolved = await poolId(ctx, id);
    if (resolved) await platformClient(ctx).agentPools.destroy(resolved);
  },
};

/** The organization of a pool, searched among the organizations the token sees (only for an import by `apool-…`). */
async function organizationOf(ctx: HandlerContext, id: string): Promise<string | undefined> {
  const api = platformClient(ctx);
  for await (const org of api.organizations.iterate()) {
    const page = await api.agentPools.list(org.name).catch(() => undefined);
    if (page?.items.some((p) => p.id === id)) return org.name;
  }
  return undefined;
}
