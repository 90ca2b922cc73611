import { Candidate, HandlerContext, Observed, Spec, Written } from '../../core/engine/handler';
import { ApiError } from '../../core/http/api-error';
import { durationSeconds } from '../../core/constructs/validation';
import { resourceMetadata } from '../../core/schema';
import { NoCodeVariable, NoCodeWorkspaceCreate, Workspace, WorkspaceVar } from './no-code-client';
import { fromClient, orgAndName, platformClient, toClient } from '../shared/handler-util';
import { NO_CODE_WORKSPACE } from './no-code-workspace.schema';
import { PlatformResourceHandler, inOrganization } from '../shared/kind-permissions';

/** The module version a workspace runs, from `source-module-id` (`private/<org>/<name>/<provider>/<version>`). */
export function workspaceVersion(ws: Workspace): string | null {
  const parts = (ws.sourceModuleId ?? '').split('/');
  return parts.length === 5 ? parts[4] : null;
}

function outputsOf(ws: Workspace): Record<string, unknown> {
  return { id: ws.id, moduleVersion: workspaceVersion(ws), noCodeModuleVersionId: ws.noCodeModuleVersion?.id ?? null };
}

async function show(ctx: HandlerContext, id: string): Promise<Workspace | undefined> {
  const api = platformClient(ctx).noCodeModules;
  const named = orgAndName(id);
  return named ? api.showWorkspaceByName(named.organization, named.name) : api.showWorkspace(id);
}

/** The creation body of a spec: its attributes, project and variables (`vars`), as the client takes them. */
function createOf(spec: Spec): NoCodeWorkspaceCreate {
  const { project, vars, ...attrs } = toClient(NO_CODE_WORKSPACE, spec) as Record<string, any>;
  return { ...attrs, projectId: project, vars: varsOf(vars) } as NoCodeWorkspaceCreate;
}

function varsOf(vars: unknown): NoCodeVariable[] {
  return ((vars ?? []) as NoCodeVariable[]).map((v) => ({ ...v, value: String(v.value ?? '') }));
}

/**
 * `platform.NoCodeWorkspace`: identity `ws-…`. Name, description and auto-apply change in place
 * (the platform's workspace update). Variables are read back (`GET /workspaces/<id>/vars`), so
 * drift on them is found; a sensitive value cannot be read, so while any variable is sensitive the
 * list is compared with the last apply instead. A change of variables or of `moduleVersion` (with an
 * upgrade available) runs the upgrade: initiate, poll until the plan has finished, confirm.
 */
export const noCodeWorkspaceHandler: PlatformResourceHandler = {
  ...resourceMetadata(NO_CODE_WORKSPACE),
  permissions: {
    needs: (s) => `create workspaces in project ${typeof s.projectId === 'string' ? s.projectId : '(its project)'} of "${String(s.organization)}", read and write their variables, queue and apply runs (upgrades); a user or team token`,
    organization: (s) => inOrganization(s, 'can-create-workspace'),
  },
  destroyWarning: 'deleting a workspace deletes its state and run history; the infrastructure it manages is not destroyed',

  naturalId(): undefined {
    return undefined;
  },

  // Workspace names are unique in an organization.
  uniqueFindKey: true,

  async find(ctx, spec): Promise<Candidate[]> {
    const ws = await platformClient(ctx).noCodeModules.showWorkspaceByName(String(spec.organization), String(spec.name));
    return ws ? [{ id: ws.id, createdAt: (ws as { createdAt?: string }).createdAt }] : [];
  },

  importId(id: string): string {
    if (/^ws-[A-Za-z0-9]+$/.test(id) || orgAndName(id)) return id;
    throw new Error(`workspace import id "${id}" must be a workspace id (ws-…) or <organization>/<workspace name>`);
  },

  async read(ctx, id, desired): Promise<Observed | undefined> {
    const ws = await show(ctx, id);
    if (!ws) return undefined;
    const vars = await platformClient(ctx).noCodeModules.workspaceVars(ws.id);
    const observed = vars && observedVars(vars, (desired?.variables ?? []) as Spec[]);
    const fields: Spec = {
      organization: (ws.organization as { id: string }).id,
      ...fromClient(NO_CODE_WORKSPACE, { ...ws, project: ws.project.id, vars: observed }),
      // The version the workspace runs; a spec without one leaves it unmanaged (never compared), and an
      // older converge's null for that is kept by the hint. An available upgrade shows as a version change.
      moduleVersion: desired?.moduleVersion === null ? null : workspaceVersion(ws),
    };
    // Unreadable while a variable is sensitive: compared with the last apply instead.
    if (!observed) delete fields.variables;
    // The workspace document names its no-code module version, not the module: the desired one stands.
    if (desired?.noCodeModuleId !== undefined) fields.noCodeModuleId = desired.noCodeModuleId;
    return { fields, outputs: outputsOf(ws) };
  },

  async create(ctx, spec): Promise<Written> {
    const ws = await platformClient(ctx).noCodeModules.createWorkspace(String(spec.noCodeModuleId), createOf(spec));
    return { id: ws.id, outputs: outputsOf(ws) };
  },

  async update(ctx, id, spec, changes): Promise<Written> {
    const api = platformClient(ctx).noCodeModules;
    const ws = await show(ctx, id);
    if (!ws) throw new Error(`${ctx.address}: workspace ${id} no longer exists`);
    if (ws.name !== spec.name || ws.description !== spec.description || ws.autoApply !== spec.autoApply) {
      await api.updateWorkspace(ws.id, { name: spec.name as string, description: spec.description as string, autoApply: spec.autoApply as boolean });
    }
    const current = workspaceVersion(ws);
    const wantsVersion = spec.moduleVersion != null && spec.moduleVersion !== current;
    const varsChanged = changes.some((c) => c.path.startsWith('variables'));
    if (wantsVersion) {
      // The platform upgrades to the module's pinned version: it must be the one asked for, and offered.
      const mod = await api.show(String(spec.noCodeModuleId));
      if (mod && mod.versionPin !== spec.moduleVersion) {
        throw new Error(`${ctx.address}: the no-code module pins ${mod.versionPin}, not ${String(spec.moduleVersion)}; `
          + 'pin that version on the no-code module first');
      }
      if (!ws.noCodeUpgradeAvailable) {
        throw new Error(`${ctx.address}: workspace ${ws.name} runs ${current} and reports no upgrade available to ${String(spec.moduleVersion)}`);
      }
    }
    if (wantsVersion || varsChanged) {
      const timeoutMs = millis(spec.upgradeTimeout, 600_000);
      const pollMs = millis(spec.upgradePollInterval, 2000);
      try {
        await api.upgrade(String(spec.noCodeModuleId), ws.id, createOf(spec).vars, { timeoutMs, pollMs });
      } catch (e) {
        if (e instanceof ApiError) throw e;
        throw new Error(`${ctx.address}: ${(e as Error).message}`);
      }
    }
    const after = await api.showWorkspace(ws.id);
    return { id: ws.id, outputs: outputsOf(after ?? ws) };
  },

  async delete(ctx, id): Promise<void> {
    const ws = await show(ctx, id);
    if (ws) await platformClient(ctx).noCodeModules.deleteWorkspace(ws.id);
  },
};

/**
 * The variables in the spec's shape and the desired order (others after them), or undefined when
 * a sensitive one (desired or actual) makes the list unreadable as a whole.
 */
function observedVars(vars: WorkspaceVar[], desired: Spec[]): Spec[] | undefined {
  if (vars.some((v) => v.sensitive) || desired.some((v) => v.sensitive === true)) return undefined;
  const rank = (v: WorkspaceVar) => {
    const i = desired.findIndex((d) => d.key === v.key && (d.category ?? 'engine') === v.category);
    return i < 0 ? desired.length : i;
  };
  return [...vars].sort((a, b) => rank(a) - rank(b) || a.key.localeCompare(b.key)).map((v) => ({
    key: v.key, value: v.value ?? '', category: v.category, hcl: v.hcl, sensitive: v.sensitive, description: v.description ?? '',
  }));
}

/** A duration of the spec in milliseconds, or the fallback when absent or invalid. */
function millis(v: unknown, fallback: number): number {
  const s = typeof v === 'string' || typeof v === 'number' ? durationSeconds(v) : NaN;
  return Number.isFinite(s) ? s * 1000 : fallback;
}
