/**
 * The lifecycle shared by every mesh configuration-entry kind, over the configuration-entry
 * interface. Writes use check-and-set (`cas`): a create only if the entry is absent, an update
 * only at the ModifyIndex just read, so that a concurrent writer is never overwritten silently.
 */
import { HandlerContext, Observed, PrefetchWant, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { ConfigEntryJson, MeshConfigEntries } from './config-entry-client';
import { resourceMetadata } from '../../core/schema';
import { decodeReadEntry, EntryKind, isEntryKind } from '../compiler/entries';
import { ConfigEntrySchema } from './config-entry.schema';
import { entryId, entryToSpec, parseEntryId, specToEntry } from './entry-spec';

function client(ctx: HandlerContext): MeshConfigEntries {
  return new MeshConfigEntries(ctx.http);
}

function concurrentWriter(ctx: HandlerContext, id: string, expected: string): Error {
  return new Error(`${ctx.address}: ${id} was written by someone else while converge worked (expected ${expected}); `
    + 'not overwriting it: run plan again to see the current state');
}

/** An entry as the plan compares it. */
function observedOf(schema: ConfigEntrySchema, got: ConfigEntryJson): Observed {
  return {
    fields: entryToSpec(schema, decodeReadEntry(got)),
    outputs: { createIndex: got.CreateIndex, modifyIndex: got.ModifyIndex },
    version: got.ModifyIndex,
  };
}

/**
 * The `ns` of a request: only outside the default namespace, since a Community Edition server refuses
 * any `ns` (and `Namespace` in a body) as an Enterprise feature, `default` included.
 */
export function nsParam(namespace: string | undefined): string | undefined {
  return namespace && namespace !== 'default' ? namespace : undefined;
}

/** The handler of a configuration-entry kind: it declares the entry kind it writes, which `converge watch` watches. */
export interface ConfigEntryHandler extends ResourceHandler {
  readonly entryKind: EntryKind;
}

/** The configuration-entry kind a handler writes (`service-defaults`), if it is a configuration-entry handler. */
export function configEntryKindOf(handler: ResourceHandler): EntryKind | undefined {
  const k = (handler as Partial<ConfigEntryHandler>).entryKind;
  return isEntryKind(k) ? k : undefined;
}

/** The handler of one entry kind, from its schema. */
export function configEntryHandler(schema: ConfigEntrySchema): ConfigEntryHandler {
  const entryKind = schema.entryKind;
  const idOf = (spec: Spec) => entryId(entryKind, String(spec.name), String(spec.namespace ?? 'default'));
  // Only the fields converge manages, and `Namespace` only outside the default one.
  const body = (spec: Spec) => {
    const { Namespace, ...entry } = specToEntry(schema, spec) as unknown as Record<string, unknown> & { Kind: string; Name: string };
    return (nsParam(Namespace as string | undefined) ? { ...entry, Namespace } : entry) as typeof entry;
  };

  return {
    ...resourceMetadata(schema),
    entryKind,
    outputsChangedByUpdate: ['modifyIndex'],

    naturalId: idOf,

    async read(ctx, id): Promise<Observed | undefined> {
      const { name, namespace } = parseEntryId(id);
      const got = await client(ctx).get(entryKind, name, { namespace: nsParam(namespace) }, ctx.address);
      return got ? observedOf(schema, got) : undefined;
    },

    /** One list per namespace answers every entry of the kind, where two or more are wanted. */
    async prefetch(ctx, wanted: readonly PrefetchWant[]) {
      const known = new Map<string, Observed | null>();
      const byNamespace = new Map<string, PrefetchWant[]>();
      for (const w of wanted) {
        const ns = parseEntryId(w.id).namespace;
        byNamespace.set(ns, [...(byNamespace.get(ns) ?? []), w]);
      }
      for (const [namespace, ws] of byNamespace) {
        if (ws.length < 2) continue;
        const listed = await client(ctx).list(entryKind, { namespace: nsParam(namespace) }, ctx.address);
        const byName = new Map(listed.value.map((e) => [String(e.Name), e]));
        for (const w of ws) {
          const e = byName.get(parseEntryId(w.id).name);
          // A list the token's ACL filtered says nothing of what it left out: those are read one by one
          // (and a read the token may not make fails with the server's permission message).
          if (e) known.set(w.id, observedOf(schema, e));
          else if (!listed.filteredByAcls) known.set(w.id, null);
        }
      }
      return known;
    },

    async create(ctx, spec): Promise<Written> {
      const id = idOf(spec);
      const ok = await client(ctx).put(body(spec), { cas: 0 }, ctx.address);
      if (!ok) throw concurrentWriter(ctx, id, 'the entry not to exist');
      return { id };
    },

    async update(ctx, id, spec): Promise<Written> {
      const { name, namespace } = parseEntryId(id);
      const c = client(ctx);
      // The index the plan saw: a writer after the plan makes the cas fail (read now only for an old saved plan).
      const cas = ctx.expectedVersion ?? (await c.get(entryKind, name, { namespace: nsParam(namespace) }, ctx.address))?.ModifyIndex ?? 0;
      if (!(await c.put(body(spec), { cas }, ctx.address))) throw concurrentWriter(ctx, id, `ModifyIndex ${cas}`);
      return { id };
    },

    async delete(ctx, id): Promise<void> {
      const { name, namespace } = parseEntryId(id);
      await client(ctx).delete(entryKind, name, { namespace: nsParam(namespace) }, ctx.address);
    },

    importId(id: string): string {
      const parsed = parseEntryId(id);
      if (!isEntryKind(parsed.kind) || parsed.kind !== entryKind) {
        throw new Error(`"${id}" is not a ${entryKind} id: use ${entryKind}/<name> or <namespace>/${entryKind}/<name>`);
      }
      return entryId(parsed.kind, parsed.name, parsed.namespace);
    },
  };
}
