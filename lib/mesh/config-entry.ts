import { TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { convergeElementsOf, Resource, ResourceProps } from '../core/constructs/resource';
import { check, checkOneOf, ValidationError } from '../core/constructs/validation';
import { DecodeError, EntryKind } from './compiler/entries';
import { EntryValidationError, validateEntry } from './compiler/validate';
import { canonicalSpec, entryId, specToEntry } from './entry-spec';
import { MeshGatewayMode, MeshProtocol } from './mesh-types';
import { MeshProvider } from './provider';

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
 * Base of the mesh configuration-entry constructs. The spec is the entry decoded and
 * validated as the mesh system does it, so that equivalent forms never show as drift.
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
  protected readonly _spec: Record<string, any>;

  protected constructor(scope: Construct, id: string, kind: string, entryKind: string, props: MeshConfigEntryProps, fields: Record<string, any>) {
    super(scope, id, kind, 'mesh', props, props.provider);
    this.entryKind = entryKind;
    checkPropTypes(this, fields, props);
    const raw = { ...fields, namespace: props.namespace, meta: props.meta };
    let spec: Record<string, any>;
    try {
      const entry = specToEntry(entryKind as EntryKind, raw);
      validateEntry(entry);
      spec = canonicalSpec(entryKind as EntryKind, raw);
    } catch (e) {
      if (e instanceof DecodeError || e instanceof EntryValidationError) throw new ValidationError(this, fieldOf(e.message, fields), e.message);
      throw e;
    }
    this._spec = spec;
    this.name = spec.name;
    this.namespace = spec.namespace;
    this.entryId = entryId(entryKind, spec.name, spec.namespace);
  }

  /**
   * Services (in this entry's namespace unless given) whose entries must exist before this one
   * is written and be removed after it. @internal
   */
  protected _referencedServices(): { namespace: string; service: string }[] {
    return [];
  }

  /** Whether this entry needs the resolvers of the services it names (their subsets). @internal */
  protected _needsResolvers(): boolean {
    return false;
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
    const named = this._referencedServices();
    if (!named.length) return;
    const keys = new Set(named.map((s) => `${s.namespace}/${s.service}`));
    const existing = new Set(this.node.dependencies);
    const index = entryIndex(TerraformStack.of(this));
    const candidates = [...index.proxyDefaults, ...[...keys].flatMap((k) => index.byService.get(k) ?? [])];
    for (const c of candidates) {
      if (c === this || existing.has(c)) continue;
      const key = `${c.namespace}/${c.name}`;
      const wanted = c.entryKind === 'proxy-defaults'
        || (c.entryKind === 'service-defaults' && keys.has(key))
        || (c.entryKind === 'service-resolver' && this._needsResolvers() && keys.has(key));
      if (wanted) { this.node.addDependency(c); existing.add(c); }
    }
  }
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

/**
 * Types the mesh system's weak decoding would convert silently (a name `false` becomes "0") and
 * values of the constructs' enums: refused here, naming the prop.
 */
function checkPropTypes(scope: Construct, fields: Record<string, any>, props: MeshConfigEntryProps): void {
  const isMap = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  check(fields.name === undefined || typeof fields.name === 'string', scope, 'name', `must be a string (got ${JSON.stringify(fields.name)})`);
  // The entry is read and deleted at /v1/config/<kind>/<name>: a name that is not one path segment cannot be.
  check(typeof fields.name !== 'string' || (!fields.name.includes('/') && fields.name !== '.' && fields.name !== '..'), scope, 'name',
    `"${fields.name}" must not contain "/" or be "." or ".." (the API addresses the entry by name in its URL path)`);
  check(props.namespace === undefined || typeof props.namespace === 'string', scope, 'namespace', `must be a string (got ${JSON.stringify(props.namespace)})`);
  check(props.meta === undefined || (isMap(props.meta) && Object.values(props.meta).every((v) => typeof v === 'string')), scope, 'meta',
    'must be a map of key to string');
  for (const f of ['externalSni', 'connectTimeout', 'defaultSubset']) {
    check(fields[f] === undefined || typeof fields[f] === 'string', scope, f, `must be a string (got ${JSON.stringify(fields[f])})`);
  }
  for (const f of ['subsets', 'redirect', 'failover', 'meshGateway', 'config']) {
    check(fields[f] === undefined || isMap(fields[f]), scope, f, `must be an object (got ${JSON.stringify(fields[f])})`);
  }
  for (const f of ['splits', 'routes']) {
    check(fields[f] === undefined || Array.isArray(fields[f]), scope, f, `must be a list (got ${JSON.stringify(fields[f])})`);
  }
  checkOneOf(scope, 'meshGateway.mode', fields.meshGateway?.mode, Object.values(MeshGatewayMode));
  if (fields.protocol !== undefined) checkOneOf(scope, 'protocol', fields.protocol, Object.values(MeshProtocol));
}

/** The prop a mesh-system message is about, for the error's field. */
function fieldOf(message: string, fields: Record<string, any>): string {
  const m = /^'([A-Za-z]+)/.exec(message) ?? /error decoding '([A-Za-z]+)/.exec(message);
  const candidates: [RegExp, string][] = [
    [/^Route\[/, 'routes'], [/split/i, 'splits'], [/Redirect/, 'redirect'], [/Failover/, 'failover'],
    [/DefaultSubset/, 'defaultSubset'], [/Subset|Filter/, 'subsets'], [/ConnectTimeout/, 'connectTimeout'],
    [/Mesh Gateway/, 'meshGateway'], [/^Name is required|name/, 'name'],
  ];
  if (m) return m[1].charAt(0).toLowerCase() + m[1].slice(1);
  for (const [re, field] of candidates) if (re.test(message) && (field === 'name' || field in fields)) return field;
  return 'props';
}
