import { Candidate, HandlerContext, Observed, Spec, Written } from '../../core/engine/handler';
import { ApiError } from '../../core/http/api-error';
import { resourceMetadata } from '../../core/schema';
import { stringSet } from '../../core/string-set';
import { VariableSetAttributes, VariableSetDoc } from './variable-set-client';
import { platformClient } from '../shared/handler-util';
import { VARIABLE_SET } from './variable-set.schema';
import { PlatformResourceHandler, inOrganization } from '../shared/kind-permissions';

function observedOf(v: VariableSetDoc): Observed {
  const fields: Spec = {
    name: v.name, description: v.description ?? '', global: v.global, priority: v.priority === true,
    workspaces: stringSet((v.workspaces ?? []).map((w) => w.id)), projects: stringSet((v.projects ?? []).map((p) => p.id)),
  };
  if (typeof v.organization?.id === 'string') fields.organization = v.organization.id;
  return { fields, outputs: { id: v.id }, id: v.id };
}

function attributesOf(spec: Spec): VariableSetAttributes {
  return { name: String(spec.name), description: String(spec.description ?? ''), global: spec.global === true, priority: spec.priority === true };
}

/** Applies the set to what the app lists and removes it from the rest. */
async function syncTargets(ctx: HandlerContext, id: string, current: VariableSetDoc, spec: Spec): Promise<void> {
  const api = platformClient(ctx).variableSets;
  for (const [kind, field, have] of [['workspaces', 'workspaces', current.workspaces], ['projects', 'projects', current.projects]] as const) {
    const held = (have ?? []).map((x) => x.id);
    const wanted = stringSet((spec[field] ?? []) as string[]);
    const add = wanted.filter((x) => !held.includes(x));
    const remove = held.filter((x) => !wanted.includes(x));
    if (add.length) await api.relate(id, 'POST', kind, add);
    if (remove.length) await api.relate(id, 'DELETE', kind, remove);
  }
}

/**
 * `platform.VariableSet`: identity is the server's `varset-…`; found by its name (unique in the
 * organization) after a crash. Workspaces and projects are kept in sync by the relationship endpoints.
 */
export const variableSetHandler: PlatformResourceHandler = {
  ...resourceMetadata(VARIABLE_SET),
  permissions: {
    needs: (s) => `manage variable sets of organization "${String(s.organization)}"`,
    organization: (s) => inOrganization(s, 'can-manage-varsets'),
  },

  naturalId(): undefined {
    return undefined;
  },

  uniqueFindKey: true,

  async find(ctx, spec): Promise<Candidate[]> {
    try {
      for await (const v of platformClient(ctx).variableSets.iterate(String(spec.organization))) if (v.name === spec.name) return [{ id: v.id }];
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
    return [];
  },

  importId(id: string): string {
    if (!/^varset-[A-Za-z0-9]+$/.test(id)) throw new Error(`variable set import id "${id}" must be a variable set id (varset-…)`);
    return id;
  },

  async read(ctx, id): Promise<Observed | undefined> {
    const v = await platformClient(ctx).variableSets.show(id);
    return v ? observedOf(v) : undefined;
  },

  async create(ctx, spec): Promise<Written> {
    const api = platformClient(ctx).variableSets;
    const v = await api.create(String(spec.organization), attributesOf(spec));
    await syncTargets(ctx, v.id, v, spec);
    return { id: v.id, outputs: { id: v.id } };
  },

  async update(ctx, id, spec): Promise<Written> {
    const v = await platformClient(ctx).variableSets.update(id, attributesOf(spec));
    await syncTargets(ctx, id, v, spec);
    return { id, outputs: { id } };
  },

  async delete(ctx, id): Promise<void> {
    await platformClient(ctx).variableSets.destroy(id);
  },
};
