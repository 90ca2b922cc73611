import { Candidate, HandlerContext, Observed, Spec, Written } from '../../core/engine/handler';
import { ApiError } from '../../core/http/api-error';
import { resourceMetadata } from '../../core/schema';
import { Project as ProjectDoc } from './project-client';
import { fromClient, goneSincePlan, orgAndName, platformClient, serverIdOf } from '../shared/handler-util';
import { PROJECT } from './project.schema';
import { PlatformResourceHandler, inOrganization, organizationOfLookup } from '../shared/kind-permissions';

function observedOf(p: ProjectDoc): Observed {
  const fields: Spec = { ...fromClient(PROJECT, p), organization: p.organization?.id, description: p.description ?? '' };
  return { fields, outputs: { id: p.id }, id: p.id };
}

/** The organization's project of that exact name; undefined when there is none (or no such organization). */
export async function projectByName(ctx: HandlerContext, organization: string, name: string): Promise<ProjectDoc | undefined> {
  try {
    for await (const p of platformClient(ctx).projects.iterate(organization, name)) if (p.name === name) return p;
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 404)) throw e;
  }
  return undefined;
}

/** The project of an id in state: `prj-…`, or `<organization>/<name>` from an import or a lookup. */
async function projectOf(ctx: HandlerContext, id: string): Promise<ProjectDoc | undefined> {
  const named = orgAndName(id);
  return named ? projectByName(ctx, named.organization, named.name) : platformClient(ctx).projects.show(id);
}

/**
 * `platform.Project`: identity is the server's `prj-…`; found by its name (unique in the
 * organization) after a crash. Renamed in place; a change of organization replaces it.
 */
export const projectHandler: PlatformResourceHandler = {
  ...resourceMetadata(PROJECT),
  permissions: {
    needs: (s) => `create and manage projects in organization "${String(s.organization)}"`,
    lookup: (s) => `read the projects of organization "${organizationOfLookup(s)}"`,
    organization: (s) => inOrganization(s, 'can-create-project'),
  },
  destroyWarning: 'the platform refuses to delete a project that still holds workspaces',

  naturalId(): undefined {
    return undefined;
  },

  uniqueFindKey: true,

  async find(ctx, spec): Promise<Candidate[]> {
    const p = await projectByName(ctx, String(spec.organization), String(spec.name));
    return p ? [{ id: p.id }] : [];
  },

  importId(id: string): string {
    if (/^prj-[A-Za-z0-9]+$/.test(id) || orgAndName(id)) return id;
    throw new Error(`project import id "${id}" must be a project id (prj-…) or <organization>/<project name>`);
  },

  async read(ctx, id): Promise<Observed | undefined> {
    const p = await projectOf(ctx, id);
    return p ? observedOf(p) : undefined;
  },

  async create(ctx, spec): Promise<Written> {
    const p = await platformClient(ctx).projects.create(String(spec.organization), { name: String(spec.name), description: String(spec.description ?? '') });
    return { id: p.id, outputs: { id: p.id } };
  },

  async update(ctx, id, spec): Promise<Written> {
    const resolved = (await serverIdOf(id, async (o, n) => (await projectByName(ctx, o, n))?.id)) ?? id;
    const p = await platformClient(ctx).projects.update(resolved, { name: String(spec.name), description: String(spec.description ?? '') })
      .catch((e) => { throw goneSincePlan(e, 'project'); });
    return { id: p.id, outputs: { id: p.id } };
  },

  /** An id that answers 404 is gone (success): a project of the same name made since is another one, not deleted. */
  async delete(ctx, id): Promise<void> {
    const resolved = await serverIdOf(id, async (o, n) => (await projectByName(ctx, o, n))?.id);
    if (resolved) await platformClient(ctx).projects.destroy(resolved);
  },
};
