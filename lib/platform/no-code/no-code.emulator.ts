import { Router } from '../../core/emulator-kit/router';
import { EmuRequest, EmuResponse } from '../../core/emulator-kit/types';
import { workspaceResource } from '../workspace/workspace.emulator';
import { canDo, PlatformContext, visibleOrganization, visibleOrganizationById } from '../emulator/context';
import {
  ApiFailure, badRequest, BASE, doc, errors, includes, notFound, readData, relationshipData, text, unprocessable,
} from '../emulator/jsonapi';
import {
  newId, NoCodeModuleRecord, OrganizationRecord, PlatformState, UpgradeRunRecord, VariableOptionsRecord, VarRecord,
  WorkspaceRecord,
} from '../emulator/state';

/** No-code provisioning works over the private registry: without this entitlement the endpoints answer 404. */
const ENTITLEMENT = 'private-module-registry';
/** Both spellings are accepted for reading a module with its variable options. */
const OPTION_INCLUDES = ['variable_options', 'variable-options'];
const NAME_RE = /^[A-Za-z0-9_-]+$/;
/** The plain-text body of a confirmed upgrade. */
export const UPGRADE_COMPLETED = 'Workspace update completed';

export function registerNoCodeRoutes(router: Router<PlatformContext>): void {
  router.add('POST', `${BASE}/organizations/:org/no-code-modules`, enable);
  router.add('GET', `${BASE}/no-code-modules/:id`, read);
  router.add('PATCH', `${BASE}/no-code-modules/:id`, update);
  router.add('POST', `${BASE}/no-code-modules/:id/workspaces`, createWorkspace);
  router.add('POST', `${BASE}/no-code-modules/:id/workspaces/:ws/upgrade`, initiateUpgrade);
  router.add('GET', `${BASE}/no-code-modules/:id/workspaces/:ws/upgrade/:run`, (_req, p, ctx) => {
    const { run } = upgradeOf(ctx, p);
    return doc(200, { data: upgradeResource(ctx, run) });
  });
  router.add('POST', `${BASE}/no-code-modules/:id/workspaces/:ws/upgrade/:run`, confirmUpgrade);
}

/** The no-code endpoints refuse organization tokens: user or team tokens only (404, as for no access). */
function noCodeCaller(ctx: PlatformContext): void {
  if (ctx.caller.token.kind === 'organization') throw new ApiFailure(notFound());
}

function moduleOf(ctx: PlatformContext, id: string, permission?: 'manage-modules' | 'create-workspaces'): { mod: NoCodeModuleRecord; org: OrganizationRecord } {
  noCodeCaller(ctx);
  const mod = ctx.state.noCodeModules[id];
  const org = mod && visibleOrganizationById(ctx, mod.organizationId, ENTITLEMENT);
  if (!mod || !org || (permission && !canDo(ctx, org, permission))) throw new ApiFailure(notFound());
  return { mod, org };
}

function enable(req: EmuRequest, p: Record<string, string>, ctx: PlatformContext): EmuResponse {
  noCodeCaller(ctx);
  const org = visibleOrganization(ctx, p.org);
  if (!org || org.entitlements[ENTITLEMENT] !== true || !canDo(ctx, org, 'manage-modules')) return notFound();
  const { attributes: a, relationships } = readData(req, 'no-code-modules');
  const regId = (relationshipData(relationships, 'registry-module') as any)?.id;
  if (typeof regId !== 'string') return unprocessable('data.relationships.registry-module.data.id is required');
  const reg = ctx.state.registryModules[regId];
  if (!reg || reg.organizationId !== org.externalId) return unprocessable(`registry module "${regId}" not found in the organization's private registry`);
  if (!reg.noCodeReady) return unprocessable('the module does not meet the no-code design requirements');
  const enabled = a.enabled ?? false;
  if (typeof enabled !== 'boolean') return unprocessable('enabled must be a boolean');
  // The state table: a disabled module is enabled again by this POST (200, same id); an enabled one is refused.
  const existing = Object.values(ctx.state.noCodeModules).find((m) => m.registryModuleId === regId);
  if (existing && (existing.enabled || !enabled)) return unprocessable('no-code provisioning is already set up for this module');
  const pin = a['version-pin'] ?? (existing ? existing.versionPin : latestVersion(reg.versions.map((v) => v.version)));
  if (typeof pin !== 'string' || !reg.versions.some((v) => v.version === pin)) return unprocessable(`version-pin "${String(pin)}" is not a version of the module`);
  const mod: NoCodeModuleRecord = existing ?? { id: newId(ctx.state, 'nocode'), organizationId: org.externalId, registryModuleId: regId, enabled, versionPin: pin, variableOptionIds: [] };
  const options = optionSets(ctx, mod, relationshipData(relationships, 'variable-options'));
  mod.enabled = enabled;
  mod.versionPin = pin;
  ctx.state.noCodeModules[mod.id] = mod;
  if (options) applyOptionSets(ctx.state, mod, options);
  // The platform answers 200 here, not 201.
  return doc(200, { data: moduleResource(ctx, mod) });
}

function read(req: EmuRequest, p: Record<string, string>, ctx: PlatformContext): EmuResponse {
  const { mod } = moduleOf(ctx, p.id);
  const wanted = includes(req.query);
  const bad = wanted.filter((i) => !OPTION_INCLUDES.includes(i));
  if (bad.length) return badRequest(`Invalid include parameter: ${bad.join(',')} (allowed: variable_options)`);
  const included = wanted.length ? mod.variableOptionIds.map((id) => optionsResource(ctx.state.variableOptions[id], true)) : undefined;
  return doc(200, { data: moduleResource(ctx, mod), ...(included ? { included } : {}) });
}

function update(req: EmuRequest, p: Record<string, string>, ctx: PlatformContext): EmuResponse {
  const { mod, org } = moduleOf(ctx, p.id, 'manage-modules');
  const { attributes: a, relationships } = readData(req, 'no-code-modules');
  let regId = mod.registryModuleId;
  const regData = relationshipData(relationships, 'registry-module') as any;
  if (regData !== undefined) {
    if (typeof regData?.id !== 'string') return unprocessable('data.relationships.registry-module.data.id must be a string');
    const reg = ctx.state.registryModules[regData.id];
    if (!reg || reg.organizationId !== org.externalId) return unprocessable(`registry module "${regData.id}" not found in the organization's private registry`);
    if (!reg.noCodeReady) return unprocessable('the module does not meet the no-code design requirements');
    if (Object.values(ctx.state.noCodeModules).some((m) => m.registryModuleId === reg.id && m !== mod)) {
      return unprocessable('no-code provisioning is already set up for this module');
    }
    regId = reg.id;
  }
  const reg = ctx.state.registryModules[regId];
  if ('enabled' in a && typeof a.enabled !== 'boolean') return unprocessable('enabled must be a boolean');
  // Changing the module without a pin moves to its latest version.
  const pin = a['version-pin'] ?? (regId === mod.registryModuleId ? mod.versionPin : latestVersion(reg.versions.map((v) => v.version)));
  if (typeof pin !== 'string' || !reg.versions.some((v) => v.version === pin)) return unprocessable(`version-pin "${String(pin)}" is not a version of the module`);
  const options = optionSets(ctx, mod, relationshipData(relationships, 'variable-options'));
  mod.registryModuleId = regId;
  mod.versionPin = pin;
  if ('enabled' in a) mod.enabled = a.enabled as boolean;
  if (options) applyOptionSets(ctx.state, mod, options);
  return doc(200, { data: moduleResource(ctx, mod) });
}

interface OptionSetInput { id?: string; variableName: string; variableType: string; options: unknown[] }

/** Validates `variable-options` data; undefined when the relationship is absent. */
function optionSets(ctx: PlatformContext, mod: NoCodeModuleRecord, data: unknown): OptionSetInput[] | undefined {
  if (data === undefined) return undefined;
  if (!Array.isArray(data)) throw new ApiFailure(unprocessable('data.relationships.variable-options.data must be an array'));
  const problems: string[] = [];
  const out = data.map((d: any, i): OptionSetInput => {
    const at = `variable-options data[${i}]`;
    if (d?.type !== 'variable-options') problems.push(`${at}.type must be "variable-options"`);
    const a = d?.attributes ?? {};
    if (typeof a['variable-name'] !== 'string' || !a['variable-name']) problems.push(`${at}: variable-name can't be blank`);
    if (typeof a['variable-type'] !== 'string' || !a['variable-type']) problems.push(`${at}: variable-type can't be blank`);
    if (!Array.isArray(a.options)) problems.push(`${at}: options must be an array`);
    if (d?.id !== undefined && (typeof d.id !== 'string' || ctx.state.variableOptions[d.id]?.noCodeModuleId !== mod.id)) {
      problems.push(`${at}: variable options "${String(d.id)}" not found on this module`);
    }
    return { id: d?.id, variableName: a['variable-name'], variableType: a['variable-type'], options: a.options };
  });
  if (problems.length) throw new ApiFailure(unprocessable(...problems));
  return out;
}

/**
 * The sets sent are the module's sets from now on: a set with an `id` replaces that set (same id),
 * a set without one is created with a new `ncvaropt-` id, and sets not sent are removed.
 */
function applyOptionSets(state: PlatformState, mod: NoCodeModuleRecord, sets: OptionSetInput[]): void {
  const ids: string[] = [];
  for (const s of sets) {
    const id = s.id ?? newId(state, 'ncvaropt');
    state.variableOptions[id] = { id, noCodeModuleId: mod.id, variableName: s.variableName, variableType: s.variableType, options: s.options };
    ids.push(id);
  }
  for (const old of mod.variableOptionIds) if (!ids.includes(old)) delete state.variableOptions[old];
  mod.variableOptionIds = ids;
}

export function latestVersion(versions: string[]): string | undefined {
  const parts = (v: string) => v.split(/[.+-]/).map((x) => (/^\d+$/.test(x) ? Number(x) : x));
  return [...versions].sort((a, b) => {
    const pa = parts(a); const pb = parts(b);
    for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
      const x = pa[i] ?? -1; const y = pb[i] ?? -1;
      if (x === y) continue;
      return typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    }
    return 0;
  }).pop();
}

export function moduleResource(ctx: PlatformContext, mod: NoCodeModuleRecord): Record<string, unknown> {
  const org = ctx.state.organizations[mod.organizationId];
  return {
    id: mod.id,
    type: 'no-code-modules',
    attributes: { enabled: mod.enabled, 'version-pin': mod.versionPin },
    relationships: {
      organization: { data: { id: org.name, type: 'organizations' }, links: { related: `${BASE}/organizations/${encodeURIComponent(org.name)}` } },
      'registry-module': { data: { id: mod.registryModuleId, type: 'registry-modules' }, links: { related: `${BASE}/registry-modules/${mod.registryModuleId}` } },
      'variable-options': { data: mod.variableOptionIds.map((id) => ({ id, type: 'variable-options' })) },
    },
    links: { self: `${BASE}/no-code-modules/${mod.id}` },
  };
}

export function optionsResource(o: VariableOptionsRecord, withModule: boolean): Record<string, unknown> {
  return {
    id: o.id,
    type: 'variable-options',
    attributes: { 'variable-name': o.variableName, 'variable-type': o.variableType, options: o.options },
    ...(withModule ? { relationships: { 'no-code-allowed-module': { data: { id: o.noCodeModuleId, type: 'no-code-allowed-modules' } } } } : {}),
  };
}

/** Reads `relationships.vars.data[]` of a workspace create or upgrade body. */
function readVars(relationships: Record<string, unknown>, mod: NoCodeModuleRecord, state: PlatformState): VarRecord[] {
  const data = relationshipData(relationships, 'vars') ?? [];
  if (!Array.isArray(data)) throw new ApiFailure(unprocessable('data.relationships.vars.data must be an array'));
  const problems: string[] = [];
  const vars = data.map((d: any, i): VarRecord => {
    const at = `vars data[${i}]`;
    if (d?.type !== 'vars') problems.push(`${at}.type must be "vars"`);
    const a = d?.attributes ?? {};
    if (typeof a.key !== 'string' || !a.key) problems.push(`${at}: key can't be blank`);
    const value = a.value ?? '';
    if (typeof value !== 'string') problems.push(`${at}: value must be a string`);
    const category = a.category;
    if (category !== 'engine' && category !== 'env') problems.push(`${at}: category must be "engine" or "env"`);
    if (a.hcl !== undefined && typeof a.hcl !== 'boolean') problems.push(`${at}: hcl must be a boolean`);
    if (a.sensitive !== undefined && typeof a.sensitive !== 'boolean') problems.push(`${at}: sensitive must be a boolean`);
    const opts = mod.variableOptionIds.map((id) => state.variableOptions[id]).find((o) => o?.variableName === a.key);
    if (opts && category === 'engine' && !opts.options.some((o) => String(o) === value)) {
      problems.push(`${at}: value of "${a.key}" is not one of the allowed options`);
    }
    return { key: a.key, value: value as string, description: typeof a.description === 'string' ? a.description : '', category, hcl: a.hcl === true, sensitive: a.sensitive === true };
  });
  const keys = vars.map((v) => `${v.category}/${v.key}`);
  if (new Set(keys).size !== keys.length) problems.push('a variable is given twice');
  if (problems.length) throw new ApiFailure(unprocessable(...problems));
  return vars;
}

function createWorkspace(req: EmuRequest, p: Record<string, string>, ctx: PlatformContext): EmuResponse {
  const { mod, org } = moduleOf(ctx, p.id);
  const { attributes: a, relationships } = readData(req, 'workspaces');
  const projectId = (relationshipData(relationships, 'project') as any)?.id;
  const project = typeof projectId === 'string' ? ctx.state.projects[projectId] : undefined;
  if (typeof projectId === 'string' && project?.organizationId === org.externalId && !canDo(ctx, org, 'create-workspaces')) {
    return notFound();
  }
  const problems: string[] = [];
  if (!mod.enabled) problems.push('no-code provisioning is not enabled for this module');
  if (typeof a.name !== 'string' || !a.name) problems.push('Name can\'t be blank');
  else if (!NAME_RE.test(a.name)) problems.push('Name can only contain letters, numbers, \'-\', and \'_\'');
  else if (Object.values(ctx.state.workspaces).some((w) => w.organizationId === org.externalId && w.name === a.name)) problems.push('Name has already been taken');
  if (a.description !== undefined && typeof a.description !== 'string') problems.push('description must be a string');
  const autoApply = a.auto_apply ?? a['auto-apply'] ?? false;
  if (typeof autoApply !== 'boolean') problems.push('auto_apply must be a boolean');
  if (typeof projectId !== 'string') problems.push('data.relationships.project.data.id is required');
  else if (!project || project.organizationId !== org.externalId) problems.push(`project "${projectId}" not found`);
  if (problems.length) return unprocessable(...problems);
  const vars = readVars(relationships, mod, ctx.state);
  const now = new Date(ctx.clock.now()).toISOString();
  const ws: WorkspaceRecord = {
    id: newId(ctx.state, 'ws'), name: a.name as string, organizationId: org.externalId, projectId: projectId as string,
    createdAt: now, updatedAt: now, description: (a.description as string) ?? '', autoApply: autoApply as boolean,
    agentPoolId: null, noCodeModuleId: mod.id, moduleVersion: mod.versionPin, noCodeModuleVersionId: newId(ctx.state, 'nocodever'), vars,
  };
  ctx.state.workspaces[ws.id] = ws;
  return doc(200, { data: workspaceResource(ctx, ws) });
}

function noCodeWorkspace(ctx: PlatformContext, mod: NoCodeModuleRecord, wsId: string): WorkspaceRecord {
  const ws = ctx.state.workspaces[wsId];
  if (!ws || ws.noCodeModuleId !== mod.id) throw new ApiFailure(notFound());
  return ws;
}

function initiateUpgrade(req: EmuRequest, p: Record<string, string>, ctx: PlatformContext): EmuResponse {
  const { mod, org } = moduleOf(ctx, p.id, 'create-workspaces');
  const ws = noCodeWorkspace(ctx, mod, p.ws);
  const { relationships } = readData(req, 'workspaces');
  const vars = readVars(relationships, mod, ctx.state);
  const reg = ctx.state.registryModules[mod.registryModuleId];
  const failing = reg?.versions.find((v) => v.version === mod.versionPin)?.failing === true;
  const changedVars = vars.some((v) => {
    const cur = ws.vars.find((w) => w.key === v.key && w.category === v.category);
    return !cur || cur.value !== v.value || cur.hcl !== v.hcl || cur.sensitive !== v.sensitive;
  });
  const run: UpgradeRunRecord = {
    id: newId(ctx.state, 'run'), workspaceId: ws.id, noCodeModuleId: mod.id, startedAt: ctx.clock.now(), targetVersion: mod.versionPin, vars,
    outcome: failing ? 'error' : ws.moduleVersion !== mod.versionPin || changedVars ? 'changes' : 'none',
    costEstimation: org.attributes['cost-estimation-enabled'] === true,
  };
  ctx.state.upgradeRuns[run.id] = run;
  return doc(200, { data: upgradeResource(ctx, run) });
}

function upgradeOf(ctx: PlatformContext, p: Record<string, string>): { run: UpgradeRunRecord; ws: WorkspaceRecord } {
  const { mod } = moduleOf(ctx, p.id);
  const ws = noCodeWorkspace(ctx, mod, p.ws);
  const run = ctx.state.upgradeRuns[p.run];
  if (!run || run.workspaceId !== ws.id) throw new ApiFailure(notFound());
  return { run, ws };
}

/** The statuses a run passes through, one step per `upgradeStepMs` of the emulator's clock. */
export function upgradeSteps(run: UpgradeRunRecord): string[] {
  const head = ['pending', 'fetching', 'planning'];
  if (run.outcome === 'error') return [...head, 'errored'];
  if (run.outcome === 'none') return [...head, 'planned_and_finished'];
  return run.costEstimation ? [...head, 'planned', 'cost_estimated'] : [...head, 'planned'];
}

/** The status of a run at `now` (ms on the emulator's clock). */
export function upgradeStatus(state: PlatformState, run: UpgradeRunRecord, now: number): string {
  if (run.appliedAt !== undefined) return 'applied';
  const steps = upgradeSteps(run);
  const i = Math.floor((now - run.startedAt) / Math.max(1, state.upgradeStepMs));
  return steps[Math.min(Math.max(i, 0), steps.length - 1)];
}

function confirmUpgrade(_req: EmuRequest, p: Record<string, string>, ctx: PlatformContext): EmuResponse {
  const { mod } = moduleOf(ctx, p.id, 'create-workspaces');
  const { run, ws } = upgradeOf(ctx, p);
  void mod;
  const status = upgradeStatus(ctx.state, run, ctx.clock.now());
  if (!['planned', 'cost_estimated', 'planned_and_finished'].includes(status)) {
    return errors(409, { status: '409', title: 'conflict', detail: `The upgrade run is ${status} and cannot be confirmed; confirm once its plan has finished` });
  }
  run.appliedAt = ctx.clock.now();
  if (ws.moduleVersion !== run.targetVersion) ws.noCodeModuleVersionId = newId(ctx.state, 'nocodever');
  ws.moduleVersion = run.targetVersion;
  for (const v of run.vars) {
    const i = ws.vars.findIndex((w) => w.key === v.key && w.category === v.category);
    if (i >= 0) ws.vars[i] = v; else ws.vars.push(v);
  }
  ws.updatedAt = new Date(ctx.clock.now()).toISOString();
  return text(200, UPGRADE_COMPLETED);
}

export function upgradeResource(ctx: PlatformContext, run: UpgradeRunRecord): Record<string, unknown> {
  const ws = ctx.state.workspaces[run.workspaceId];
  const org = ctx.state.organizations[ws.organizationId];
  return {
    id: run.id,
    type: 'workspace-upgrade',
    attributes: {
      status: upgradeStatus(ctx.state, run, ctx.clock.now()),
      'plan-url': `https://app.emulator.invalid/app/${encodeURIComponent(org.name)}/workspaces/${encodeURIComponent(ws.name)}/runs/${run.id}`,
    },
    relationships: { workspace: { data: { id: ws.id, type: 'workspaces' } } },
  };
}

/**
 * Reading a private-registry module: not in the spec's excerpt, but the real platform's
 * `GET /organizations/<org>/registry-modules/private/<namespace>/<name>/<provider>`, whose
 * `no-code-modules` relationship lets a client find a module's no-code settings.
 */
export function registerRegistryModuleRoutes(router: Router<PlatformContext>): void {
  router.add('GET', `${BASE}/organizations/:org/registry-modules/private/:namespace/:name/:provider`, (_req, p, ctx) => {
    const org = visibleOrganization(ctx, p.org);
    if (!org || org.entitlements[ENTITLEMENT] !== true || p.namespace !== org.name) return notFound();
    const reg = Object.values(ctx.state.registryModules)
      .find((m) => m.organizationId === org.externalId && m.name === p.name && m.provider === p.provider);
    if (!reg) return notFound();
    const noCode = Object.values(ctx.state.noCodeModules).filter((m) => m.registryModuleId === reg.id);
    return doc(200, {
      data: {
        id: reg.id,
        type: 'registry-modules',
        attributes: {
          name: reg.name, namespace: org.name, provider: reg.provider, 'registry-name': 'private', status: 'setup_complete',
          'version-statuses': reg.versions.map((v) => ({ version: v.version, status: 'ok' })), 'no-code': noCode.some((m) => m.enabled),
        },
        relationships: {
          organization: { data: { id: org.name, type: 'organizations' } },
          'no-code-modules': { data: noCode.map((m) => ({ id: m.id, type: 'no-code-modules' })) },
        },
        links: { self: `${BASE}/organizations/${encodeURIComponent(org.name)}/registry-modules/private/${encodeURIComponent(org.name)}/${reg.name}/${reg.provider}` },
      },
    });
  });
}
