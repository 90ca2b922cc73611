import { Candidate, Observed, Spec, Written } from '../../core/engine/handler';
import { resourceMetadata } from '../../core/schema';
import { TeamAccessDoc, TeamAccessPermissionAttributes } from './team-client';
import { platformClient } from '../shared/handler-util';
import { TEAM_ACCESS, TEAM_ACCESS_PERMISSION_FIELDS } from './team-access.schema';
import { PlatformResourceHandler } from '../shared/kind-permissions';

const PERMISSIONS = Object.keys(TEAM_ACCESS_PERMISSION_FIELDS) as (keyof TeamAccessDoc)[];

/** A custom access's permissions as the server holds them; a fixed level's are the server's own, not managed. */
function observedOf(a: TeamAccessDoc): Observed {
  const fields: Spec = { teamId: a.team?.id, workspaceId: a.workspace?.id, access: a.access };
  if (a.access === 'custom') for (const k of PERMISSIONS) if (a[k] !== undefined) fields[k] = a[k];
  return { fields, outputs: { id: a.id }, id: a.id };
}

/** The permissions to send: those of a custom access only (a fixed level's are read-only). */
function permissionsOf(spec: Spec): TeamAccessPermissionAttributes | undefined {
  if (spec.access !== 'custom') return undefined;
  return Object.fromEntries(PERMISSIONS.filter((k) => spec[k] !== undefined).map((k) => [k, spec[k]])) as TeamAccessPermissionAttributes;
}

/**
 * `platform.TeamAccess`: identity is the server's `tws-…`; found by its team among the workspace's
 * accesses after a crash (a team has one access per workspace). The level, and a custom access's
 * permissions, change in place.
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
    const a = await platformClient(ctx).teams.addAccess(String(spec.teamId), String(spec.workspaceId), String(spec.access), permissionsOf(spec));
    return { id: a.id, outputs: { id: a.id } };
  },

  async update(ctx, id, spec): Promise<Written> {
    const a = await platformClient(ctx).teams.updateAccess(id, String(spec.access), permissionsOf(spec));
    return { id, outputs: { id: a.id } };
  },

  async delete(ctx, id): Promise<void> {
    await platformClient(ctx).teams.removeAccess(id);
  },
};
