/**
 * The intentions part of a plan's traffic diff: for each pair of a calling service and a service
 * whose intentions the plan changes, who decides the call before and after (the highest-ranked
 * matching source, as the mesh ranks them: exact names before `*`, an exact destination before
 * `*`), and a note where that changes: "web may no longer call api".
 *
 * "Before" is the intentions the mesh API holds now (or, when they cannot be read, the items'
 * last-applied specs); "after" is "before" with each planned change applied.
 */
import { PlanHook, PlanHookItem, PlanHookResult } from '../../core/engine/registry';
import { HttpClient } from '../../core/http/http-client';
import { MeshClient } from '../client/mesh-client';
import {
  decodeReadEntry, entryKey, entryNamespace, intentionPrecedence, IntentionPermission, SERVICE_INTENTIONS as ENTRY_KIND,
  ServiceIntentionsEntry,
} from '../compiler/entries';
import { specToEntry } from '../config-entry/entry-spec';
import { SERVICE_INTENTIONS } from '../config-entry/service-intentions.schema';

const CHANGING = new Set(['create', 'update', 'replace', 'delete', 'adopt']);

/** What decides a call: an L4 action, L7 permissions, or nothing (the mesh's default policy). */
type Decision = { kind: 'allow' | 'deny' } | { kind: 'l7'; permissions: string } | { kind: 'none' };

/** The intentions the API holds (every namespace where the server has them), or undefined when they cannot be read. */
export async function listIntentions(http: HttpClient | undefined): Promise<ServiceIntentionsEntry[] | undefined> {
  if (!http) return undefined;
  const client = new MeshClient(http);
  try {
    let listed;
    try {
      listed = await client.listConfigEntries(ENTRY_KIND, { namespace: '*' });
    } catch (e) {
      // A Community Edition server refuses any `ns` (400): it has one namespace.
      if ((e as { status?: number }).status !== 400) throw e;
      listed = await client.listConfigEntries(ENTRY_KIND);
    }
    return listed.value.map((e) => decodeReadEntry(e) as ServiceIntentionsEntry);
  } catch {
    return undefined;
  }
}

function entryOf(spec: Record<string, unknown> | undefined): ServiceIntentionsEntry | undefined {
  return spec ? specToEntry(SERVICE_INTENTIONS, spec) as ServiceIntentionsEntry : undefined;
}

/** One permission as a plan reads it: `allow GET,POST /api/*` (paths: `=` exact, `*` prefix, `~` expression). */
function permissionText(p: IntentionPermission): string {
  const h = p.HTTP ?? {};
  const parts: string[] = [String(p.Action)];
  if (h.Methods?.length) parts.push(h.Methods.join(','));
  if (h.PathExact) parts.push(`=${h.PathExact}`);
  if (h.PathPrefix) parts.push(`${h.PathPrefix}*`);
  if (h.PathRegex) parts.push(`~${h.PathRegex}`);
  for (const x of h.Header ?? []) {
    const how = x.Present ? 'present' : x.Exact !== undefined ? `=${x.Exact}` : x.Prefix !== undefined ? `^=${x.Prefix}`
      : x.Suffix !== undefined ? `$=${x.Suffix}` : `~${x.Regex}`;
    parts.push(`header ${x.Name}${x.Invert ? ' not' : ''} ${how}`);
  }
  return parts.join(' ');
}

/** Who decides a call from `source` to `destination` in `namespace`: the highest-ranked matching source. */
export function decide(entries: readonly ServiceIntentionsEntry[], namespace: string, source: string, destination: string): Decision {
  let best: { rank: number; d: Decision } | undefined;
  for (const e of entries) {
    if (entryNamespace(e) !== namespace || (e.Name !== destination && e.Name !== '*')) continue;
    for (const s of e.Sources ?? []) {
      if (s.Name !== source && s.Name !== '*') continue;
      const rank = intentionPrecedence(e.Name, s.Name);
      if (best && best.rank >= rank) continue;
      const d: Decision = s.Permissions?.length
        ? { kind: 'l7', permissions: s.Permissions.map(permissionText).join('; ') }
        : { kind: s.Action === 'allow' ? 'allow' : 'deny' };
      best = { rank, d };
    }
  }
  return best?.d ?? { kind: 'none' };
}

const same = (a: Decision, b: Decision) => JSON.stringify(a) === JSON.stringify(b);

function was(d: Decision): string {
  switch (d.kind) {
    case 'allow': return 'it was allowed';
    case 'deny': return 'it was denied';
    case 'l7': return `it was decided per request: ${d.permissions}`;
    default: return 'no intention decided it';
  }
}

/** The note for one pair whose decision changes. */
function noteOf(caller: string, callee: string, b: Decision, a: Decision): string {
  switch (a.kind) {
    case 'allow': return `${caller} may now call ${callee} (${was(b)})`;
    case 'deny': return b.kind === 'allow' || b.kind === 'l7'
      ? `${caller} may no longer call ${callee} (${was(b)})`
      : `${caller} is now denied calling ${callee} (${was(b)})`;
    case 'l7': return b.kind === 'l7'
      ? `${caller} calling ${callee}: the permissions change to: ${a.permissions} (were: ${b.permissions})`
      : `${caller} may call ${callee} only as permitted per request: ${a.permissions} (${was(b)})`;
    default: return `no intention decides any more whether ${caller} may call ${callee}: the mesh's default policy does (${was(b)})`;
  }
}

/** The intentions notes of a set of planned items against the intentions the API holds now. */
export function intentionsDiff(items: readonly PlanHookItem[], current: ServiceIntentionsEntry[] | undefined): PlanHookResult {
  const changing = items.filter((i) => i.kind === SERVICE_INTENTIONS.kind && CHANGING.has(i.action));
  if (!changing.length) return { notes: [], errors: [] };
  const before = new Map<string, ServiceIntentionsEntry>();
  if (current) for (const e of current) before.set(entryKey(e), e);
  else for (const i of items) if (i.kind === SERVICE_INTENTIONS.kind) { const e = entryOf(i.before); if (e) before.set(entryKey(e), e); }
  const after = new Map(before);
  const changed: ServiceIntentionsEntry[] = [];
  for (const i of changing) {
    const old = entryOf(i.before);
    const next = i.action === 'delete' ? undefined : entryOf(i.after);
    if (old) { after.delete(entryKey(old)); changed.push(old); }
    if (next) { after.set(entryKey(next), next); changed.push(next); }
  }
  const all = [...before.values(), ...after.values()];
  const notes = new Set<string>();
  for (const namespace of new Set(changed.map(entryNamespace))) {
    const inNs = all.filter((e) => entryNamespace(e) === namespace);
    const touched = changed.filter((e) => entryNamespace(e) === namespace);
    // A change to `*` touches every destination; else only the entries' own.
    const destinations = touched.some((e) => e.Name === '*')
      ? new Set(inNs.map((e) => e.Name)) : new Set(touched.map((e) => e.Name));
    const sources = new Set(inNs.flatMap((e) => (e.Sources ?? []).map((s) => String(s.Name))));
    const label = (s: string) => (namespace === 'default' ? s : `${namespace}/${s}`);
    for (const destination of [...destinations].sort(wildcardLast)) {
      for (const source of [...sources].sort(wildcardLast)) {
        const b = decide([...before.values()], namespace, source, destination);
        const a = decide([...after.values()], namespace, source, destination);
        if (same(a, b)) continue;
        // `*` stands for the services no exact name covers.
        const caller = source === '*' ? 'every other service' : source;
        const callee = destination === '*' ? 'any other service' : destination;
        notes.add(`traffic ${label(destination)}: ${noteOf(caller, callee, b, a)}`);
      }
    }
  }
  return { notes: [...notes], errors: [] };
}

/** Names in order, `*` last. */
function wildcardLast(a: string, b: string): number {
  return (a === '*' ? 1 : 0) - (b === '*' ? 1 : 0) || a.localeCompare(b);
}

/** The plan hook: the intentions notes over the plan's mesh client. */
export const intentionsDiffHook: PlanHook = async ({ items, http }) => {
  if (!items.some((i) => i.kind === SERVICE_INTENTIONS.kind && CHANGING.has(i.action))) return { notes: [], errors: [] };
  return intentionsDiff(items, await listIntentions(http('mesh')));
};
