import { Candidate, HandlerContext, Observed, Spec, Written } from '../../core/engine/handler';
import { resourceMetadata } from '../../core/schema';
import { NoCodeModule as NoCodeModuleDoc, VariableOptionSet } from './no-code-client';
import { fromClient, platformClient, toClient } from '../shared/handler-util';
import { NO_CODE_MODULE } from './no-code-module.schema';
import { PlatformResourceHandler, inOrganization, organizationOfLookup } from '../shared/kind-permissions';

interface OptionSpec { variableName: string; variableType: string; options: unknown[] }

/** `<organization>/<module name>/<provider>` of an import. */
function moduleRef(id: string): { organization: string; name: string; provider: string } | undefined {
  const m = /^([A-Za-z0-9_-]+)\/([A-Za-z0-9_-]+)\/([A-Za-z0-9_-]+)$/.exec(id);
  return m ? { organization: m[1], name: m[2], provider: m[3] } : undefined;
}

async function registryModule(ctx: HandlerContext, spec: { organization: string; name: string; provider: string }) {
  return platformClient(ctx).noCodeModules.registryModule(spec.organization, spec.name, spec.provider);
}

async function requireRegistryModule(ctx: HandlerContext, spec: Spec) {
  const ref = { organization: String(spec.organization), name: String(spec.moduleName), provider: String(spec.moduleProvider) };
  const reg = await registryModule(ctx, ref);
  if (!reg) throw new Error(`${ctx.address}: module ${ref.name}/${ref.provider} is not in the private registry of organization "${ref.organization}"`);
  return reg;
}

/** The `nocode-…` of an id in state (an import may have given `<org>/<module>/<provider>`). */
async function resolve(ctx: HandlerContext, id: string): Promise<string | undefined> {
  const ref = moduleRef(id);
  if (!ref) return id;
  return (await registryModule(ctx, ref))?.noCodeModules[0]?.id;
}

/** The version pin, enabled flag and option sets (sorted by variable name) of a module read with its option sets. */
function fieldsOf(m: NoCodeModuleDoc): Spec {
  const variableOptions = m.variableOptions.filter((o) => o.variableName !== undefined)
    .sort((a, b) => String(a.variableName).localeCompare(String(b.variableName)));
  return fromClient(NO_CODE_MODULE, { ...m, variableOptions });
}

/** The attributes of an enable or update: the spec's, with the registry module's id and option sets by id where they exist. */
function attributesOf(spec: Spec, registryModuleId: string, existing = new Map<string, string>()) {
  const { versionPin, enabled, variableOptions } = toClient(NO_CODE_MODULE, spec) as { versionPin?: string | null; enabled: boolean; variableOptions: OptionSpec[] };
  const sets: VariableOptionSet[] = variableOptions.map((o) => ({ ...o, ...(existing.has(o.variableName) ? { id: existing.get(o.variableName) } : {}) }));
  return { registryModuleId, enabled, ...(versionPin != null ? { versionPin } : {}), variableOptions: sets };
}

function outputsOf(m: NoCodeModuleDoc): Record<string, unknown> {
  return { id: m.id, versionPin: m.versionPin, registryModuleId: m.registryModule.id };
}

/**
 * `platform.NoCodeModule`: identity is `nocode-…`, found by its registry module after a crash.
 * Option sets are matched by variable name: an existing set is replaced under its id, a new one
 * created, one no longer wanted dropped. Delete disables (the platform has no delete).
 */
export const noCodeModuleHandler: PlatformResourceHandler = {
  ...resourceMetadata(NO_CODE_MODULE),
  permissions: {
    needs: (s) => `manage modules of the private registry of "${String(s.organization)}"; a user or team token (organization tokens are refused on no-code endpoints)`,
    lookup: (s) => `read the private registry and no-code modules of organization "${organizationOfLookup(s)}"; a user or team token`,
    organization: (s) => inOrganization(s, 'can-create-module'),
  },

  naturalId(): undefined {
    return undefined;
  },

  // A registry module has at most one no-code module.
  uniqueFindKey: true,

  async find(ctx, spec): Promise<Candidate[]> {
    const reg = await registryModule(ctx, { organization: String(spec.organization), name: String(spec.moduleName), provider: String(spec.moduleProvider) });
    return (reg?.noCodeModules ?? []).map((m) => ({ id: m.id }));
  },

  importId(id: string): string {
    if (/^nocode-[A-Za-z0-9]+$/.test(id) || moduleRef(id)) return id;
    throw new Error(`no-code module import id "${id}" must be a no-code module id (nocode-…) or <organization>/<module name>/<provider>`);
  },

  async read(ctx, id, desired): Promise<Observed | undefined> {
    const resolved = await resolve(ctx, id);
    const m = resolved && await platformClient(ctx).noCodeModules.show(resolved, true);
    if (!m) return undefined;
    const ref = moduleRef(id);
    const fields: Spec = { organization: m.organization.id, ...fieldsOf(m) };
    // The server's pin. A spec without one leaves it unmanaged (never compared); a spec recorded by an
    // older converge holds null for that, which the hint (desired or last-applied spec) keeps meaning.
    if (desired?.versionPin === null) fields.versionPin = null;
    // The no-code document names its registry module by id only: the names are confirmed against it.
    const name = (desired?.moduleName as string | undefined) ?? ref?.name;
    const provider = (desired?.moduleProvider as string | undefined) ?? ref?.provider;
    if (name && provider) {
      const reg = await registryModule(ctx, { organization: m.organization.id, name, provider });
      if (reg?.id === m.registryModule.id) Object.assign(fields, { moduleName: name, moduleProvider: provider });
      else Object.assign(fields, { moduleName: `(registry module ${m.registryModule.id})`, moduleProvider: '(other)' });
    }
    // Read by its registry module (an import, a lookup): its canonical id is the `nocode-…`.
    return { fields, outputs: outputsOf(m), id: m.id };
  },

  async create(ctx, spec): Promise<Written> {
    const reg = await requireRegistryModule(ctx, spec);
    // Destroy only disables (the platform has no delete): a disabled module of this registry module is
    // taken up again, by the enabling POST (the platform's state table), or by an update to stay disabled.
    const disabled = spec.enabled === false && reg.noCodeModules[0] && await platformClient(ctx).noCodeModules.show(reg.noCodeModules[0].id, true);
    if (disabled && !disabled.enabled) return noCodeModuleHandler.update(ctx, disabled.id, spec, [], { id: disabled.id, spec, outputs: {} });
    const m = await platformClient(ctx).noCodeModules.enable(String(spec.organization), attributesOf(spec, reg.id));
    return { id: m.id, outputs: outputsOf(m) };
  },

  async update(ctx, id, spec): Promise<Written> {
    const api = platformClient(ctx).noCodeModules;
    const resolved = (await resolve(ctx, id)) ?? id;
    const reg = await requireRegistryModule(ctx, spec);
    const current = await api.show(resolved, true);
    const existing = new Map((current ? current.variableOptions : []).map((o) => [o.variableName as string, o.id]));
    const m = await api.update(resolved, attributesOf(spec, reg.id, existing));
    return { id: m.id, outputs: outputsOf(m) };
  },

  async delete(ctx, id): Promise<void> {
    const resolved = await resolve(ctx, id);
    if (!resolved) return;
    const res = await platformClient(ctx).request('PATCH', `/no-code-modules/${encodeURIComponent(resolved)}`, {
      body: { data: { type: 'no-code-modules', attributes: { enabled: false } } }, accept: [404],
    });
    void res;
  },
};
