import { TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { convergeElementsOf, Resource, ResourceProps } from '../../core/constructs/resource';
import { reject } from '../../core/constructs/validation';
import { DecodeError } from '../compiler/entries';
import { EntryValidationError, validateEntry } from '../compiler/validate';
import { ConfigEntrySchema } from './config-entry.schema';
import { entryId, entryToSpec, specToEntry } from './entry-spec';
import { renderSpec } from '../../core/schema';
import { MeshProvider } from '../provider';

/** Props every mesh configuration entry accepts. */
export interface MeshConfigEntryProps extends ResourceProps {
  /**
   * Namespace of the entry (enterprise). A change replaces the entry.
   * @default 'default'
   */
  readonly namespace?: string;
  /**
   * Free-form metadata of the entry.
   * @default {}
   */
  readonly meta?: { [key: string]: string };
  /**
   * How to reach the mesh API.
   * @default - the stack's MeshProvider, else the `MESH_HTTP_ADDR` and `MESH_HTTP_TOKEN` environment variables
   */
  readonly provider?: MeshProvider;
}

/**
 * Base of the mesh configuration-entry constructs. Props are checked against the kind's schema,
 * then decoded and validated as the mesh system does it (weights, paths, subsets, redirect and
 * failover), so that equivalent forms never show as drift.
 */
export abstract class MeshConfigEntry extends Resource {
  /** The entry's name (the service it configures; `global` for proxy-defaults). */
  public readonly name: string;
  /** The entry's namespace. */
  public readonly namespace: string;
  /** The mesh system's kind of the entry: `service-defaults`, `service-router`, … */
  public readonly entryKind: string;
  /** The entry's identity: `<kind>/<name>`, or `<namespace>/<kind>/<name>` outside `default`. */
  public readonly entryId: string;
  /** @internal */
  private readonly _spec: Record<string, unknown>;

  /**
   * @param kind the construct kind (`mesh.ServiceDefaults`), whose schema the subclass gives
   */
  protected constructor(scope: Construct, id: string, kind: string, props: MeshConfigEntryProps) {
    super(scope, id, kind, 'mesh', props, props.provider);
    const schema = this._schema() as ConfigEntrySchema;
    this.entryKind = schema.entryKind;
    let spec: Record<string, unknown>;
    try {
      const entry = specToEntry(schema, renderSpec(schema.fields, this._entryProps()));
      validateEntry(entry);
      spec = entryToSpec(schema, entry);
    } catch (e) {
      if (!(e instanceof DecodeError || e instanceof EntryValidationError)) throw e;
      reject(this, fieldOf(e.message, schema), e.message);
      // Only under `converge validate` (reject records and returns): the construct is never synthesized.
      spec = {};
    }
    this._spec = spec;
    this.name = String(spec.name);
    this.namespace = String(spec.namespace);
    this.entryId = entryId(this.entryKind, this.name, this.namespace);
  }

  /** The index of the entry's last write, known once applied (a check-and-set writer compares it). */
  public get modifyIndex(): number {
    return this._attrNumber('modifyIndex');
  }

  /** The index of the entry's creation, known once applied. */
  public get createIndex(): number {
    return this._attrNumber('createIndex');
  }

  /** The services this entry names (its own included), as `namespace/service`: the chains it compiles into. @internal */
  public _servicesNamed(): string[] {
    return servicesNamed(this._spec, this.namespace, this.name).map((s) => `${s.namespace}/${s.service}`);
  }

  /** The props as the entry's fields (ProxyDefaults folds its `protocol` shorthand into `config`). @internal */
  protected _entryProps(): Record<string, unknown> {
    return this._props;
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    this._addOrderingDependencies();
    return this._spec;
  }

  /**
   * Automatic ordering: the defaults that decide a chain's protocol (proxy-defaults, the
   * service-defaults of every service this entry names) and, for routers and splitters, the
   * resolvers whose subsets they use, are written before this entry and removed after it.
   */
  private _addOrderingDependencies(): void {
    const kinds = new Set<string>((this._schema() as ConfigEntrySchema).orderedAfter);
    if (!kinds.size) return;
    const keys = new Set(servicesNamed(this._spec, this.namespace, this.name).map((s) => `${s.namespace}/${s.service}`));
    const existing = new Set(this.node.dependencies);
    const index = entryIndex(TerraformStack.of(this));
    const candidates = [...index.proxyDefaults, ...[...keys].flatMap((k) => index.byService.get(k) ?? [])];
    for (const c of candidates) {
      if (c === this || existing.has(c) || !kinds.has(c.entryKind)) continue;
      if (c.entryKind === 'proxy-defaults' || keys.has(`${c.namespace}/${c.name}`)) { this.node.addDependency(c); existing.add(c); }
    }
  }
}

/**
 * The services an entry's spec names (in its namespace unless a `namespace` says otherwise): the
 * entry's own, and every nested `service` (a split's, a route destination's, a redirect's, a
 * failover's; empty means the entry's own). Metadata is free-form: not looked into.
 */
function servicesNamed(spec: unknown, namespace: string, self: string): { namespace: string; service: string }[] {
  const out = [{ namespace, service: self }];
  const walk = (v: unknown, top: boolean): void => {
    if (Array.isArray(v)) { v.forEach((x) => walk(x, false)); return; }
    if (v === null || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    if (!top && 'service' in o) out.push({ namespace: (o.namespace as string) || namespace, service: (o.service as string) || self });
    for (const [k, x] of Object.entries(o)) if (!(top && k === 'meta')) walk(x, false);
  };
  walk(spec, true);
  return out;
}

const entryIndexes = new WeakMap<TerraformStack, { size: number; proxyDefaults: MeshConfigEntry[]; byService: Map<string, MeshConfigEntry[]> }>();

/** The stack's mesh entries by `namespace/name` (built once per synth, not walked per entry). */
function entryIndex(stack: TerraformStack): { proxyDefaults: MeshConfigEntry[]; byService: Map<string, MeshConfigEntry[]> } {
  const elements = convergeElementsOf(stack);
  const cached = entryIndexes.get(stack);
  if (cached && cached.size === elements.length) return cached;
  const built = { size: elements.length, proxyDefaults: [] as MeshConfigEntry[], byService: new Map<string, MeshConfigEntry[]>() };
  for (const c of elements) {
    if (!(c instanceof MeshConfigEntry)) continue;
    if (c.entryKind === 'proxy-defaults') { built.proxyDefaults.push(c); continue; }
    const key = `${c.namespace}/${c.name}`;
    built.byService.set(key, [...(built.byService.get(key) ?? []), c]);
  }
  entryIndexes.set(stack, built);
  return built;
}

/** The prop a mesh-system message is about, for the error's field. */
function fieldOf(message: string, schema: ConfigEntrySchema): string {
  const m = /^'([A-Za-z]+)/.exec(message) ?? /error decoding '([A-Za-z]+)/.exec(message);
  const candidates: [RegExp, string][] = [
    [/^Route\[/, 'routes'], [/split/i, 'splits'], [/Redirect/, 'redirect'], [/Failover/, 'failover'],
    [/DefaultSubset/, 'defaultSubset'], [/Subset|Filter/, 'subsets'], [/ConnectTimeout/, 'connectTimeout'],
    [/Mesh Gateway/, 'meshGateway'], [/^Sources|source is required/, 'sources'], [/^Name is required|name/, 'name'],
  ];
  if (m) return m[1].charAt(0).toLowerCase() + m[1].slice(1);
  for (const [re, field] of candidates) if (re.test(message) && (field === 'name' || field in schema.fields)) return field;
  return 'props';
}

/**
 * The mesh entries of a stack that compile into the discovery chain of `namespace/service`: the
 * proxy-defaults, the entries of the service, and those of every service they name (a split's,
 * a route destination's, a redirect's, a failover's), transitively.
 */
export function entriesOfChain(stack: TerraformStack, service: string, namespace: string): MeshConfigEntry[] {
  const index = entryIndex(stack);
  const out = new Set<MeshConfigEntry>(index.proxyDefaults);
  const seen = new Set<string>();
  const queue = [`${namespace}/${service}`];
  while (queue.length) {
    const key = queue.shift()!;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const e of index.byService.get(key) ?? []) {
      out.add(e);
      queue.push(...e._servicesNamed());
    }
  }
  return [...out];
}
