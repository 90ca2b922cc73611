import { Candidate, HandlerContext, Observed, Spec, Written } from '../../core/engine/handler';
import { ApiError } from '../../core/http/api-error';
import { resourceMetadata } from '../../core/schema';
import { stringSet } from '../../core/string-set';
import { WorkspaceAttributes, WorkspaceDoc } from './workspace-client';
import { goneSincePlan, orgAndName, platformClient, serverIdOf } from '../shared/handler-util';
import { WORKSPACE } from './workspace.schema';
import { PlatformResourceHandler, inOrganization } from '../shared/kind-permissions';

/** The Terraform version a workspace document holds (the spec names it `engine-version`, the real platform `terraform-version`). */
function versionOf(w: WorkspaceDoc): string | undefined {
  return w.engineVersion ?? w.terraformVersion;
}

/**
 * A workspace as the plan compares it. Where the app (else the last apply) leaves the project or the
 * Terraform version to the platform (null), what the platform chose is not compared.
 */
function observedOf(w: WorkspaceDoc, hint?: Spec): Observed {
  const fields: Spec = {
    organization: w.organization?.id,
    name: w.name,
    description: w.description ?? '',
    projectId: w.project?.id ?? null,
    executionMode: w.executionMode,
    agentPoolId: w.agentPool?.id ?? null,
    terraformVersion: versionOf(w) ?? null,
    workingDirectory: w.workingDirectory ?? '',
    autoApply: w.autoApply,
    tags: stringSet(w.tagNames ?? []),
  };
  if (hint && (hint.projectId === null || hint.projectId === undefined)) delete fields.projectId;
  if (hint && (hint.terraformVersion === null || hint.terraformVersion === undefined)) delete fields.terraformVersion;
  return { fields, outputs: outputsOf(w), id: w.id };
}

function outputsOf(w: WorkspaceDoc): Record<string, unknown> {
  return { id: w.id, terraformVersion: versionOf(w) ?? null };
}

/** The body of a create or update: what the app leaves to the platform is not sent. */
function attributesOf(spec: Spec): WorkspaceAttributes {
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  return {
    name: String(spec.name),
    description: String(spec.description ?? ''),
    executionMode: String(spec.executionMode ?? 'remote'),
    agentPoolId: str(spec.agentPoolId) ?? null,
    engineVersion: str(spec.terraformVersion),
    workingDirectory: String(spec.workingDirectory ?? ''),
    autoApply: spec.autoApply === true,
    projectId: str(spec.projectId),
  };
}

/** The organization's workspace of that name; undefined when there is none (or no such organization). */
async function byName(ctx: HandlerContext, organization: string, name: string): Promise<WorkspaceDoc | undefined> {
  try {
    return await platformClient(ctx).workspaces.showByName(organization, name);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return undefined;
    throw e;
  }
}

/** The workspace of an id in state: `ws-…`, or `<organization>/<name>` from an import or a lookup. */
export async function workspaceOf(ctx: HandlerContext, id: string): Promise<WorkspaceDoc | undefined> {
  const named = orgAndName(id);
  return named ? byName(ctx, named.organization, named.name) : platformClient(ctx).workspaces.show(id);
}

/**
 * `platform.Workspace`: identity is the server's `ws-…`; found by its name (unique in the
 * organization) after a crash. Renamed and moved between projects in place; a change of
 * organization replaces it. Tags are kept in sync by their add and remove endpoints.
 */
export const workspaceHandler: PlatformResourceHandler = {
  ...resourceMetadata(WORKSPACE),
  permissions: {
    needs: (s) => `create workspaces in organization "${String(s.organization)}" (and in its project ${typeof s.projectId === 'string' ? s.projectId : '(the default project)'}), manage their settings and tags`,
    lookup: (s) => `read workspace "${String(s.id)}"`,
    organization: (s) => inOrganization(s, 'can-create-workspace'),
  },
  destroyWarning: 'deleting a workspace deletes its state versions, runs and variables',

  naturalId(): undefined {
    return undefined;
  },

  uniqueFindKey: true,

  async find(ctx, spec): Promise<Candidate[]> {
    const w = await byName(ctx, String(spec.organization), String(spec.name));
    return w ? [{ id: w.id, createdAt: w.createdAt }] : [];
  },

  importId(id: string): string {
    if (/^ws-[A-Za-z0-9]+$/.test(id) || orgAndName(id)) return id;
    throw new Error(`workspace import id "${id}" must be a workspace id (ws-…) or <organization>/<workspace name>`);
  },

  async read(ctx, id, desired, prior): Promise<Observed | undefined> {
    const w = await workspaceOf(ctx, id);
    return w ? observedOf(w, desired ?? prior?.spec) : undefined;
  },

  async create(ctx, spec): Promise<Written> {
    const tags = stringSet((spec.tags ?? []) as string[]);
    const w = await platformClient(ctx).workspaces.create(String(spec.organization), { ...attributesOf(spec), name: String(spec.name), tagNames: tags });
    return { id: w.id, outputs: outputsOf(w) };
  },

  async update(ctx, id, spec): Promise<Written> {
    const api = platformClient(ctx).workspaces;
    const resolved = (await serverIdOf(id, async (o, n) => (await byName(ctx, o, n))?.id)) ?? id;
    const w = await api.update(resolved, attributesOf(spec)).catch((e) => { throw goneSincePlan(e, 'workspace'); });
    const current = stringSet(w.tagNames ?? []);
    const wanted = stringSet((spec.tags ?? []) as string[]);
    const add = wanted.filter((t) => !current.includes(t));
    const remove = current.filter((t) => !wanted.includes(t));
    if (add.length) await api.addTags(resolved, add);
    if (remove.length) await api.removeTags(resolved, remove);
    return { id: resolved, outputs: outputsOf(w) };
  },

  /** An id that answers 404 is gone (success): a workspace of the same name made since is another one, not deleted. */
  async delete(ctx, id): Promise<void> {
    const resolved = await serverIdOf(id, async (o, n) => (await byName(ctx, o, n))?.id);
    if (resolved) await platformClient(ctx).workspaces.destroy(resolved);
  },
};
