import { Candidate, HandlerContext, Observed, Spec, Written } from '../../core/engine/handler';
import { resourceMetadata } from '../../core/schema';
import { VariableAttributes, VariableDoc } from '../client/variables';
import { platformClient } from '../handler-util';
import { VARIABLE } from './variable.schema';
import { PlatformResourceHandler } from '../kind-permissions';

/** The state id of a variable: `<workspace id>/<variable id>` (the platform addresses a variable in its workspace). */
function parseId(id: string): { workspace: string; variable: string } {
  const m = /^(ws-[A-Za-z0-9]+)\/(var-[A-Za-z0-9]+)$/.exec(id);
  if (!m) throw new Error(`variable id "${id}" must be <workspace id>/<variable id> (ws-…/var-…)`);
  return { workspace: m[1], variable: m[2] };
}

function observedOf(workspace: string, v: VariableDoc): Observed {
  const fields: Spec = {
    workspace, key: v.key, value: v.sensitive ? '' : v.value ?? '', description: v.description ?? '',
    category: v.category, hcl: v.hcl, sensitive: v.sensitive,
  };
  return { fields, outputs: { id: v.id }, id: `${workspace}/${v.id}` };
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

async function findByKey(ctx: HandlerContext, workspace: string, key: string, category: string): Promise<VariableDoc | undefined> {
  return (await platformClient(ctx).variables.list(workspace))?.find((v) => v.key === key && v.category === category);
}

/**
 * `platform.Variable`: identity is `<workspace id>/<variable id>`; found by key and category (unique
 * in the workspace) after a crash. The sensitive value is write-only: the engine compares it by HMAC.
 */
export const variableHandler: PlatformResourceHandler = {
  ...resourceMetadata(VARIABLE),
  permissions: {
    needs: (s) => `read and write the variables of workspace ${String(s.workspace)}`,
  },

  naturalId(): undefined {
    return undefined;
  },

  uniqueFindKey: true,

  async find(ctx, spec): Promise<Candidate[]> {
    const v = await findByKey(ctx, String(spec.workspace), String(spec.key), String(spec.category ?? 'engine'));
    return v ? [{ id: `${String(spec.workspace)}/${v.id}` }] : [];
  },

  importId(id: string): string {
    parseId(id);
    return id;
  },

  async read(ctx, id): Promise<Observed | undefined> {
    const { workspace, variable } = parseId(id);
    const v = await platformClient(ctx).variables.show(workspace, variable);
    return v ? observedOf(workspace, v) : undefined;
  },

  async create(ctx, spec): Promise<Written> {
    const workspace = String(spec.workspace);
    const v = await platformClient(ctx).variables.create(workspace, attributesOf(spec, true) as VariableAttributes);
    return { id: `${workspace}/${v.id}`, outputs: { id: v.id } };
  },

  async update(ctx, id, spec, changes): Promise<Written> {
    const { workspace, variable } = parseId(id);
    const valueChanged = changes.some((c) => c.path === 'sensitiveValue' || c.path.startsWith('sensitiveValue.'));
    const v = await platformClient(ctx).variables.update(workspace, variable, attributesOf(spec, valueChanged));
    return { id, outputs: { id: v.id } };
  },

  async delete(ctx, id): Promise<void> {
    const { workspace, variable } = parseId(id);
    await platformClient(ctx).variables.destroy(workspace, variable);
  },
};
