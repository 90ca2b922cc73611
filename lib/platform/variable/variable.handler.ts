import { Candidate, HandlerContext, Observed, Spec, Written } from '../../core/engine/handler';
import { resourceMetadata } from '../../core/schema';
import { VariableAttributes, VariableDoc, VariablesClient } from './variable-client';
import { platformClient } from '../shared/handler-util';
import { VARIABLE } from './variable.schema';
import { PlatformResourceHandler } from '../shared/kind-permissions';

/**
 * The state id of a variable: `<workspace id>/<variable id>`, or `<variable set id>/<variable id>` for a set's own
 * (the platform addresses a variable in its workspace or set).
 */
function parseId(id: string): { parent: string; variable: string } {
  const m = /^((?:ws|varset)-[A-Za-z0-9]+)\/(var-[A-Za-z0-9]+)$/.exec(id);
  if (!m) throw new Error(`variable id "${id}" must be <workspace id>/<variable id> (ws-…/var-…) or <variable set id>/<variable id> (varset-…/var-…)`);
  return { parent: m[1], variable: m[2] };
}

/** The variables client of the parent (a workspace's, or a variable set's). */
function varsOf(ctx: HandlerContext, parent: string): VariablesClient {
  const client = platformClient(ctx);
  return parent.startsWith('varset-') ? client.variableSetVariables : client.variables;
}

/** The parent id a spec names. */
function parentOf(spec: Spec): string {
  return String(spec.workspace ?? spec.variableSet);
}

function observedOf(parent: string, v: VariableDoc): Observed {
  const fields: Spec = {
    ...(parent.startsWith('varset-') ? { variableSet: parent } : { workspace: parent }), key: v.key, value: v.sensitive ? '' : v.value ?? '', description: v.description ?? '',
    category: v.category, hcl: v.hcl, sensitive: v.sensitive,
  };
  return { fields, outputs: { id: v.id }, id: `${parent}/${v.id}` };
}

/** The body; a sensitive value only when it is to be written (it is never read back). */
function attributesOf(spec: Spec, withSensitiveValue: boolean): Partial<VariableAttributes> {
  const sensitive = spec.sensitive === true;
  const base = {
    key: String(spec.key), description: String(spec.description ?? ''), category: String(spec.category ?? 'engine'),
    hcl: spec.hcl === true, sensitive,
  };
  if (!sensitive) return { ...base, value: String(spec.value ?? '') };
  return withSensitiveValue ? { ...base, value: String(spec.sensitiveValue ?? '') } : base;
}

async function findByKey(ctx: HandlerContext, parent: string, key: string, category: string): Promise<VariableDoc | undefined> {
  return (await varsOf(ctx, parent).list(parent))?.find((v) => v.key === key && v.category === category);
}

/**
 * `platform.Variable`: identity is `<workspace id>/<variable id>` (or `<variable set id>/<variable id>`); found by key
 * and category (unique in the workspace or set) after a crash. The sensitive value is write-only: the engine compares it by HMAC.
 */
export const variableHandler: PlatformResourceHandler = {
  ...resourceMetadata(VARIABLE),
  permissions: {
    needs: (s) => (s.variableSet !== undefined ? `manage variable sets of the organization of variable set ${String(s.variableSet)}`
      : `read and write the variables of workspace ${String(s.workspace)}`),
  },

  naturalId(): undefined {
    return undefined;
  },

  uniqueFindKey: true,

  async find(ctx, spec): Promise<Candidate[]> {
    const v = await findByKey(ctx, parentOf(spec), String(spec.key), String(spec.category ?? 'engine'));
    return v ? [{ id: `${parentOf(spec)}/${v.id}` }] : [];
  },

  importId(id: string): string {
    parseId(id);
    return id;
  },

  async read(ctx, id): Promise<Observed | undefined> {
    const { parent, variable } = parseId(id);
    const v = await varsOf(ctx, parent).show(parent, variable);
    return v ? observedOf(parent, v) : undefined;
  },

  async create(ctx, spec): Promise<Written> {
    const parent = parentOf(spec);
    const v = await varsOf(ctx, parent).create(parent, attributesOf(spec, true) as VariableAttributes);
    return { id: `${parent}/${v.id}`, outputs: { id: v.id } };
  },

  async update(ctx, id, spec, changes): Promise<Written> {
    const { parent, variable } = parseId(id);
    const valueChanged = changes.some((c) => c.path === 'sensitiveValue' || c.path.startsWith('sensitiveValue.'));
    const v = await varsOf(ctx, parent).update(parent, variable, attributesOf(spec, valueChanged));
    return { id, outputs: { id: v.id } };
  },

  async delete(ctx, id): Promise<void> {
    const { parent, variable } = parseId(id);
    await varsOf(ctx, parent).destroy(parent, variable);
  },
};
