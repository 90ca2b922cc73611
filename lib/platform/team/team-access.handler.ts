import { Candidate, Observed, Written } from '../../core/engine/handler';
import { resourceMetadata } from '../../core/schema';
import { TeamAccessDoc } from '../client/teams';
import { platformClient } from '../handler-util';
import { TEAM_ACCESS } from './team-access.schema';
import { PlatformResourceHandler } from '../kind-permissions';

function observedOf(a: TeamAccessDoc): Observed {
  return { fields: { teamId: a.team?.id, workspaceId: a.workspace?.id, access: a.access }, outputs: { id: a.id }, id: a.id };
}

/**
 * `platform.TeamAccess`: identity is the server's `tws-…`; found by its team among the workspace's
 * accesses after a crash (a team has one access per workspace). The level changes in place.
 */
export const teamAccessHandler: PlatformResourceHandler = {
  ...resourceMetadata(TEAM_ACCESS),
  permissions: {
    needs: (s) => `admin access to workspace ${String(s.workspaceId)} (manage its team access), and read team ${String(s.teamId)}`,
  },

  naturalId(): undefined {
    return undefined;
  },

  uniqueFindKey: true,

  async find(ctx, spec): Promise<Candidate[]> {
    for await (const a of platformClient(ctx).teams.iterateAccess(String(spec.workspaceId))) {
      if (a.team?.id === spec.teamId) return [{ id: a.id }];
    }
    return [];
  },

  importId(id: string): string {
    if (!/^tws-[A-Za-z0-9]+$/.test(id)) throw new Error(`team access import id "${id}" must be a team access id (tws-…)`);
    return id;
  },

  async read(ctx, id): Promise<Observed | undefined> {
    const a = await platformClient(ctx).teams.showAccess(id);
    return a ? observedOf(a) : undefined;
  },

  async create(ctx, spec): Promise<Written> {
    const a = await platformClient(ctx).teams.addAccess(String(spec.teamId), String(spec.workspaceId), String(spec.access));
    return { id: a.id, outputs: { id: a.id } };
  },

  async update(ctx, id, spec): Promise<Written> {
    const a = await platformClient(ctx).teams.updateAccess(id, String(spec.access));
    return { id, outputs: { id: a.id } };
  },

  async delete(ctx, id): Promise<void> {
    await platformClient(ctx).teams.removeAccess(id);
  },
};
