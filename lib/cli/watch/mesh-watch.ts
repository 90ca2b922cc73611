import { ApiClients } from '../../core/engine/api-clients';
import { registeredKinds, resourceHandler } from '../../core/engine/registry';
import { DesiredStack, ProviderConfig } from '../../core/model';
import { MeshClient } from '../../mesh/client/mesh-client';
import { configEntryKindOf } from '../../mesh/config-entry/config-entry.handler';

/** One blocking query loop: a configuration-entry kind at one mesh provider, and the stacks that manage entries of it. */
interface Watched {
  readonly provider: ProviderConfig;
  readonly kind: string;
  /** Per stack, the entries of this kind it manages (`namespace/name`); undefined when a name is not known before apply (a reference). */
  readonly stacks: Map<string, Set<string> | undefined>;
}

/**
 * Finds changes of mesh configuration entries as they happen: one blocking query (`?index=`) per
 * entry kind and mesh provider that the watched stacks use, each answering when an entry of that
 * kind changes (or after `waitS`). A change of the entries a stack manages (their presence and modify
 * indexes) calls `changed(stack)` for that stack only; the watcher then plans that stack's mesh
 * objects. The first answer only sets the baseline.
 */
export class MeshWatch {
  private readonly watched = new Map<string, Watched>();
  private stopped = false;
  private readonly loops: Promise<void>[] = [];

  constructor(private readonly clients: ApiClients, stacks: readonly DesiredStack[], private readonly waitS: number,
    private readonly changed: (stack: string) => void, private readonly failed: (message: string) => void) {
    for (const s of stacks) {
      for (const r of Object.values(s.resources)) {
        if (r.provider.api !== 'mesh' || r.dataSource) continue;
        const kind = entryKindOf(r.kind);
        if (!kind) continue;
        const key = JSON.stringify([kind, r.provider.address ?? '', r.provider.addressEnv, r.provider.tokenEnv]);
        const w = this.watched.get(key) ?? { provider: r.provider, kind, stacks: new Map<string, Set<string> | undefined>() };
        const name = r.spec.name;
        const names = w.stacks.has(s.stack) ? w.stacks.get(s.stack) : new Set<string>();
        w.stacks.set(s.stack, typeof name === 'string' && names ? names.add(entryKey(r.spec.namespace, name)) : undefined);
        this.watched.set(key, w);
      }
    }
  }

  /** The number of blocking queries it keeps open. */
  public get size(): number { return this.watched.size; }

  /** The configuration-entry kinds it watches. */
  public get entryKinds(): string[] { return [...new Set([...this.watched.values()].map((w) => w.kind))].sort(); }

  public start(): void {
    for (const w of this.watched.values()) this.loops.push(this.loop(w));
  }

  private async loop(w: Watched): Promise<void> {
    const client = new MeshClient(this.clients.for(w.provider));
    let index = 0;
    let seen: Map<string, string> | undefined;
    let failures = 0;
    while (!this.stopped) {
      try {
        const res = await client.listConfigEntries(w.kind, index > 0 ? { index, wait: `${this.waitS}s` } : {});
        if (this.stopped) return;
        failures = 0;
        const next = res.index;
        // An index that goes backwards (a server restored, a new leader) starts over, as the mesh system's clients do.
        index = next > 0 && next >= index ? next : 0;
        // Per stack, only the entries it manages: a change of another stack's entry does not plan (nor lock) this one.
        const entries = res.value.map((e) => [entryKey(e.Namespace, e.Name), e.ModifyIndex ?? null] as const);
        const now = new Map([...w.stacks].map(([stack, names]) =>
          [stack, JSON.stringify(entries.filter(([k]) => !names || names.has(k)).sort())]));
        if (seen !== undefined) for (const [stack, fingerprint] of now) if (seen.get(stack) !== fingerprint) this.changed(stack);
        seen = now;
      } catch (e) {
        if (this.stopped) return;
        failures++;
        this.failed(`blocking query on ${w.kind} entries failed (${(e as Error).message}); retrying`);
        index = 0;
        // Back off (1 s, 2 s, ... up to 30 s): the interval's plans still find drift meanwhile.
        await sleep(Math.min(30_000, 1000 * 2 ** Math.min(failures - 1, 5)));
      }
    }
  }

  /** Stops asking; queries in flight are dropped with the process (they only read). */
  public stop(): void {
    this.stopped = true;
  }
}

/** An entry's key in a kind's list: its namespace (default when none) and name. */
function entryKey(namespace: unknown, name: unknown): string {
  return `${typeof namespace === 'string' && namespace ? namespace : 'default'}/${String(name)}`;
}

/**
 * The mesh configuration-entry kind a converge kind writes (`service-defaults`), as its handler declares
 * it: a new entry kind is watched once registered, with no table here to keep.
 */
export function entryKindOf(kind: string): string | undefined {
  return registeredKinds().resources.includes(kind) ? configEntryKindOf(resourceHandler(kind)) : undefined;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}
