import { TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../core/constructs/resource';
import { ValidationError } from '../core/constructs/validation';
import { DecodeError, EntryKind } from './compiler/entries';
import { EntryValidationError, validateEntry } from './compiler/validate';
import { canonicalSpec, entryId, specToEntry } from './entry-spec';
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
    for (const c of TerraformStack.of(this).node.findAll()) {
      if (!(c instanceof MeshConfigEntry) || c === this || existing.has(c)) continue;
      const key = `${c.namespace}/${c.name}`;
      const wanted = c.entryKind === 'proxy-defaults'
        || (c.entryKind === 'service-defaults' && keys.has(key))
        || (c.entryKind === 'service-resolver' && this._needsResolvers() && keys.has(key));
      if (wanted) this.node.addDependency(c);
    }
  }
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
