import { Candidate, HandlerContext, Observed, Spec, Written } from '../../core/engine/handler';
import { ApiError } from '../../core/http/api-error';
import { resourceMetadata } from '../../core/schema';
import { TeamAttributes, TeamDoc } from './team-client';
import { goneSincePlan, orgAndName, platformClient, serverIdOf } from '../shared/handler-util';
import { ORGANIZATION_ACCESS_KEYS, TEAM } from './team.schema';
import { PlatformResourceHandler, inOrganization, organizationOfLookup } from '../shared/kind-permissions';

/** The organization access as the plan compares it: every key, false where the server leaves one out. */
function accessOf(raw: Record<string, unknown> | undefined): Record<string, boolean> {
  return Object.fromEntries(ORGANIZATION_ACCESS_KEYS.map((k) => [k, raw?.[k] === true]));
}

/** A team as the plan compares it; the team document does not name its organization (compared with the last apply). */
function observedOf(t: TeamDoc): Observed {
  const fields: Spec = { name: t.name, visibility: t.visibility, organizationAccess: accessOf(t.organizationAccess) };
  return { fields, outputs: { id: t.id }, id: t.id };
}

function attributesOf(spec: Spec): TeamAttributes {
  return { name: String(spec.name), visibility: String(spec.visibility ?? 'secret'), organizationAccess: accessOf(spec.organizationAccess as Record<string, unknown>) };
}

async function byName(ctx: HandlerContext, organization: string, name: string): Promise<TeamDoc | undefined> {
  try {
    for await (const t of platformClient(ctx).teams.iterate(organization, name)) if (t.name === name) return t;
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 404)) throw e;
  }
  return undefined;
}

async function teamOf(ctx: HandlerContext, id: string): Promise<TeamDoc | undefined> {
  const named = orgAndName(id);
  return named ? byName(ctx, named.organization, named.name) : platformClient(ctx).teams.show(id);
}

/**
 * `platform.Team`: identity is the server's `team-…`; found by its name (unique in the organization)
 * after a crash. Renamed in place; its organization access is one object, sent whole.
 */
export const teamHandler: PlatformResourceHandler = {
  ...resourceMetadata(TEAM),
  permissions: {
    needs: (s) => `owners team of "${String(s.organization)}" (manage teams and their organization access)`,
    lookup: (s) => `read the teams of organization "${organizationOfLookup(s)}"`,
    organization: (s) => inOrganization(s, 'can-create-team'),
  },
  destroyWarning: 'deleting a team removes its members\' access to the organization\'s workspaces and projects, and revokes its token',

  naturalId(): undefined {
    return undefined;
  },

  uniqueFindKey: true,

  async find(ctx, spec): Promise<Candidate[]> {
    const t = await byName(ctx, String(spec.organization), String(spec.name));
    return t ? [{ id: t.id }] : [];
  },

  importId(id: string): string {
    if (/^team-[A-Za-z0-9]+$/.test(id) || orgAndName(id)) return id;
    throw new Error(`team import id "${id}" must be a team id (team-…) or <organization>/<team name>`);
  },

  async read(ctx, id): Promise<Observed | undefined> {
    const t = await teamOf(ctx, id);
    return t ? observedOf(t) : undefined;
  },

  async create(ctx, spec): Promise<Written> {
    const t = await platformClient(ctx).teams.create(String(spec.organization), attributesOf(spec));
    return { id: t.id, outputs: { id: t.id } };
  },

  async update(ctx, id, spec): Promise<Written> {
    const resolved = (await serverIdOf(id, async (o, n) => (await byName(ctx, o, n))?.id)) ?? id;
    const t = await platformClient(ctx).teams.update(resolved, attributesOf(spec)).catch((e) => { throw goneSincePlan(e, 'team'); });
    return { id: resolved, outputs: { id: t.id } };
  },

  /** An id that answers 404 is gone (success): a team of the same name made since is another one, not deleted. */
  async delete(ctx, id): Promise<void> {
    const resolved = await serverIdOf(id, async (o, n) => (await byName(ctx, o, n))?.id);
    if (resolved) await platformClient(ctx).teams.destroy(resolved);
  },
};
