/**
 * The mesh's traffic as a picture model (`converge graph`, `plan --summary`): every service's
 * discovery chain compiled from the entries the mesh API holds now ("before") and from those entries
 * with a plan's changes applied ("after"). Drawing it is the CLI's (lib/cli/graph).
 */
import { CompiledChain, CompileError } from '../compiler/chain';
import { compileWithTrace } from '../compiler/compile';
import { ConfigEntry, entryKey } from '../compiler/entries';
import { servicesNamedBy } from '../compiler/graph';
import { specToEntry } from '../config-entry/entry-spec';
import { ENTRY_SCHEMA_OF, MeshView } from './traffic-diff';

/** One service's chain before and after; a chain that does not compile is its error message. */
export interface ServiceTraffic {
  /** `web`, or `ns/web` outside the default namespace. */
  readonly label: string;
  readonly before?: CompiledChain | string;
  readonly after?: CompiledChain | string;
}

/** A configuration entry a plan writes or deletes: the construct's kind and its spec (after: undefined when deleted). */
export interface PlannedEntry {
  readonly kind: string;
  readonly before?: Record<string, unknown>;
  readonly after?: Record<string, unknown>;
}

/** Whether a construct kind manages a configuration entry (a part of the traffic picture). */
export function isEntryKind(kind: string): boolean {
  return ENTRY_SCHEMA_OF[kind] !== undefined;
}

function entryOf(kind: string, spec: Record<string, unknown> | undefined): ConfigEntry | undefined {
  if (!spec) return undefined;
  try { return specToEntry(ENTRY_SCHEMA_OF[kind], spec); } catch { return undefined; }
}

/**
 * The traffic of every service the entries name, before and after `planned`. "Before" is what the
 * API holds (or, when it cannot be read, the planned entries' prior specs).
 */
export async function trafficPicture(planned: readonly PlannedEntry[], view: MeshView): Promise<ServiceTraffic[]> {
  const before = new Map<string, ConfigEntry>();
  const current = await view.entries();
  if (current) for (const e of current) before.set(entryKey(e), e);
  else for (const p of planned) { const e = entryOf(p.kind, p.before); if (e) before.set(entryKey(e), e); }
  const after = new Map(before);
  for (const p of planned) {
    const old = entryOf(p.kind, p.before);
    const next = entryOf(p.kind, p.after);
    if (old) after.delete(entryKey(old));
    if (next) after.set(entryKey(next), next);
  }
  const beforeList = [...before.values()];
  const afterList = [...after.values()];
  const services = servicesNamedBy([...beforeList, ...afterList]);
  if (!services.length) return [];
  const { datacenter, trustDomain, shape } = await view.basis(services[0].service, services[0].namespace);
  const compile = (entries: ConfigEntry[], namespace: string, service: string): CompiledChain | string | undefined => {
    if (!servicesNamedBy(entries).some((s) => s.service === service && s.namespace === namespace)) return undefined;
    try {
      return compileWithTrace({ service, namespace, entries, datacenter, trustDomain, shape }).chain;
    } catch (e) {
      if (e instanceof CompileError) return e.message;
      throw e;
    }
  };
  return services.map(({ namespace, service }) => ({
    label: namespace === 'default' ? service : `${namespace}/${service}`,
    before: compile(beforeList, namespace, service),
    after: compile(afterList, namespace, service),
  }));
}
