import './cdk-adapter';
import { TerraformElement, TerraformStack, Token } from 'cdktf';
import { Construct, IConstruct } from 'constructs';
import { ApiProvider, providersOf } from './api-provider';
import { RemovalPolicy } from './removal-policy';
import { checkRequiredProps } from './required-props';
import { SecretValue } from './secret-value';
import { attrList, attrNumber, attrOfList, attrOfToken, attrString } from './attr-token';
import { checkIdentityFields } from './identity-fields';
import { fqnOfKind, normalizeStructProps, UnknownFieldError } from './struct-shapes';
import { reject } from './validation';
import { DESIRED_FORMAT, DesiredResource, isAttrRef } from '../model';
import { standardVariablesOf } from '../reserved-variables';
import { KindSchema, renderSpec } from '../schema';
import { validateProps } from '../schema/validate-props';

/** Props every converge resource accepts. */
export interface ResourceProps {
  /**
   * What happens to the object when the construct is removed or the stack destroyed.
   * @default - RemovalPolicy.DESTROY, unless the construct says otherwise (an organization is retained)
   */
  readonly removalPolicy?: RemovalPolicy;

  /**
   * Take an object that already exists under this construct's identity (its natural key, or for an
   * identity the server assigns, the single object of the same name) under management, instead of
   * stopping the plan with a conflict. Without it, converge changes and deletes only what it created
   * or was told to import (`converge import ADDRESS ID`).
   * @default false
   */
  readonly adoptExisting?: boolean;

  /**
   * When a change forces a replacement, create the new object before deleting the old one, as
   * Terraform's `create_before_destroy`. Only where the server assigns the identity (two objects can
   * coexist); elsewhere the old object is deleted first.
   * @default false
   */
  readonly createBeforeDestroy?: boolean;
}

/**
 * Base of every converge construct. It writes its desired state (kind, spec, provider,
 * dependencies) into the stack's synthesized `"//".metadata.converge`, where the
 * reconciler reads it; nothing is rendered as a Terraform resource.
 */
export abstract class ConvergeElement extends TerraformElement {
  /** The kind of object, e.g. `platform.Organization`. */
  public readonly kind: string;
  /** Address of the construct inside its stack (`team/db`), used in plans and state. */
  public readonly address: string;
  /** @internal */
  protected readonly _api: string;
  /** @internal */
  protected readonly _provider?: ApiProvider;

  /**
   * @param props the construct's props: checked at every depth against the struct fields its class declares,
   * a key spelt as another jsii language spells a field (`path_prefix`) renamed to the field (`pathPrefix`)
   */
  protected constructor(scope: Construct, id: string, kind: string, api: string, provider?: ApiProvider, props?: any) {
    super(scope, id);
    try {
      normalizeStructProps(fqnOfKind(kind), props);
    } catch (e) {
      if (!(e instanceof UnknownFieldError)) throw e;
      reject(this, e.field, e.rule);
    }
    checkRequiredProps(this, kind, props);
    const schema = this._schema();
    const fields = this._schemaProps(props ?? {});
    if (schema) {
      if (schema.kind !== kind) throw new Error(`${this.node.path}: the construct's kind ${kind} is not its schema's (${schema.kind})`);
      checkIdentityFields(this, schema.fields, fields);
      validateProps(this, schema.fields, fields);
    }
    this._props = fields;
    this.kind = kind;
    this._api = api;
    this._provider = provider;
    const stack = TerraformStack.of(this);
    this.address = this.node.path.slice(stack.node.path.length + 1);
    // Kept per stack as constructs are made: looking them up at synth must not walk the tree each time.
    const list = stackElements.get(stack) ?? [];
    list.push(this);
    stackElements.set(stack, list);
  }

  /** The props as the schema sees them (`_schemaProps`), which the schema renders. @internal */
  protected readonly _props: Record<string, any>;

  /**
   * The props as the schema sees them: by default as given (normalised to camelCase keys). A construct
   * whose props reference other objects by interface (`organization: IOrganization`) answers the
   * spec's fields instead (`organization: 'acme'`), so that they are validated and rendered as such.
   * Called from the base constructor: it must use only `props`. @internal
   */
  protected _schemaProps(props: Record<string, any>): Record<string, any> {
    return props;
  }

  /**
   * The kind's one declaration of its fields (`lib/core/schema`): when a construct has one, its props
   * are checked against it and its spec rendered from it. @internal
   */
  protected _schema(): KindSchema | undefined {
    return undefined;
  }

  /** Whether an output (`data.password`: its top-level key) is a secret, as the kind's schema declares. @internal */
  public _outputIsSensitive(attr: string): boolean {
    return this._schema()?.outputs?.[attr.split(/[.[]/)[0]]?.sensitive === true;
  }

  /** A reference to an attribute the API assigns (an id), resolved when converge applies. @internal */
  public _attrRef(attr: string): any {
    return { $ref: this.address, attr, $stack: TerraformStack.of(this).node.path };
  }

  /** A string attribute of this construct, known once applied (a token the reconciler resolves). @internal */
  public _attrString(attr: string): string {
    return attrString(this._attrRef(attr));
  }

  /** A number attribute of this construct, known once applied (a token the reconciler resolves). @internal */
  public _attrNumber(attr: string): number {
    return attrNumber(this._attrRef(attr));
  }

  /** A list-of-strings attribute of this construct, known once applied (a list token the reconciler resolves). @internal */
  public _attrList(attr: string): string[] {
    return attrList(this._attrRef(attr));
  }

  /** The spec: JSON, with `SecretValue`s and references as leaves; by default the schema's rendering of the props. @internal */
  protected _renderSpec(): Record<string, any> {
    const schema = this._schema();
    if (!schema) throw new Error(`${this.node.path}: ${this.kind} has neither a schema nor its own rendering`);
    return renderSpec(schema.fields, this._props);
  }

  /** @internal */
  protected _isDataSource(): boolean {
    return false;
  }

  /** @internal */
  protected _removalPolicy(): RemovalPolicy {
    return RemovalPolicy.DESTROY;
  }

  /** @internal */
  protected _lifecycle(): { adoptExisting?: boolean; createBeforeDestroy?: boolean } {
    return {};
  }

  public toMetadata(): any {
    const deps = new Set<string>();
    const stack = TerraformStack.of(this);
    const otherStacks = new Map<string, string>();
    const spec = collectRefs(toPlainJson(this._renderSpec(), this.node.path, ''), { into: deps, stacks: otherStacks, stack, where: this.node.path }) as Record<string, unknown>;
    for (const d of this.node.dependencies) {
      for (const c of d.node.findAll()) {
        if (!(c instanceof ConvergeElement)) continue;
        const other = TerraformStack.of(c);
        if (other === stack) deps.add(c.address);
        else otherStacks.set(other.node.id, `${other.node.id}/${c.address}`);
      }
    }
    for (const [other, what] of otherStacks) recordStackDependency(stack, other, `${this.node.path}: refers to ${what}`);
    deps.delete(this.address);
    const provider = this._provider ?? findProvider(TerraformStack.of(this), this._api);
    const desired: DesiredResource = {
      kind: this.kind,
      ...(this._isDataSource() ? { dataSource: true } : {}),
      spec,
      provider: {
        api: this._api as DesiredResource['provider']['api'],
        ...(provider?.address ? { address: provider.address } : {}),
        addressEnv: provider?.addressEnv ?? standardVariablesOf(this._api).addressEnv,
        tokenEnv: provider?.tokenEnv ?? standardVariablesOf(this._api).tokenEnv,
        ...provider?._transport(),
      },
      dependsOn: [...deps].sort(),
      removalPolicy: this._removalPolicy(),
      ...this._lifecycle(),
      path: this.node.path,
    };
    const dependsOnStacks = otherStacks.size ? { dependsOnStacks: Object.fromEntries([...otherStacks.keys()].map((o) => [o, [this.address]])) } : {};
    return { converge: { version: DESIRED_FORMAT, resources: { [this.address]: desired }, ...dependsOnStacks } };
  }
}

/** A managed object: created, read, updated and deleted by converge. */
export abstract class Resource extends ConvergeElement {
  /** What happens to the object when the construct is removed or the stack destroyed. */
  public readonly removalPolicy: RemovalPolicy;

  protected constructor(scope: Construct, id: string, kind: string, api: string, props: ResourceProps,
    provider?: ApiProvider, defaultRemovalPolicy: RemovalPolicy = RemovalPolicy.DESTROY) {
    super(scope, id, kind, api, provider, props);
    this.removalPolicy = props.removalPolicy ?? defaultRemovalPolicy;
    this._lifecycleProps = {
      ...(props.adoptExisting ? { adoptExisting: true } : {}),
      ...(props.createBeforeDestroy ? { createBeforeDestroy: true } : {}),
    };
  }

  /** @internal */
  private readonly _lifecycleProps: { adoptExisting?: boolean; createBeforeDestroy?: boolean };

  /** @internal */
  protected _removalPolicy(): RemovalPolicy {
    return this.removalPolicy;
  }

  /** @internal */
  protected _lifecycle(): { adoptExisting?: boolean; createBeforeDestroy?: boolean } {
    return this._lifecycleProps;
  }
}

/** A read-only object, read at plan time; its results can feed other constructs. */
export abstract class DataSource extends ConvergeElement {
  protected constructor(scope: Construct, id: string, kind: string, api: string, provider?: ApiProvider, props?: any) {
    super(scope, id, kind, api, provider, props);
  }

  /** @internal */
  protected _isDataSource(): boolean {
    return true;
  }
}

const stackElements = new WeakMap<TerraformStack, ConvergeElement[]>();
/** The converge constructs of a stack, in the order they were made (no walk of the construct tree). */
export function convergeElementsOf(stack: TerraformStack): readonly ConvergeElement[] {
  return stackElements.get(stack) ?? [];
}

/** The stack's provider construct of an API. */
function findProvider(stack: TerraformStack, api: string): ApiProvider | undefined {
  return providersOf(stack).find((p) => p.api === api);
}

/** Converts a spec to plain JSON, refusing Terraform tokens, which converge cannot resolve. */
function toPlainJson(v: unknown, path: string, field: string): unknown {
  if (v === undefined) return undefined;
  if (v instanceof SecretValue) return v.toJSON();
  if (typeof v === 'string') {
    if (Token.isUnresolved(v)) {
      const ref = attrOfToken(v, `${path}: ${field || 'a field'}`);
      if (ref) return ref;
      throw new Error(`${path}: ${field || 'a field'} refers to a Terraform attribute (a token); converge resolves only references between converge constructs`);
    }
    return v;
  }
  if (typeof v === 'number' && Token.isUnresolved(v)) {
    const ref = attrOfToken(v, `${path}: ${field || 'a field'}`);
    if (ref) return ref;
    throw new Error(`${path}: ${field || 'a field'} refers to a Terraform attribute (a token); converge resolves only references between converge constructs`);
  }
  if (Array.isArray(v)) return attrOfList(v) ?? v.map((x, i) => toPlainJson(x, path, `${field}[${i}]`));
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const j = toPlainJson(x, path, field ? `${field}.${k}` : k);
      if (j !== undefined) out[k] = j;
    }
    return out;
  }
  return v;
}

interface RefScan {
  /** Addresses of this stack the spec references. */
  readonly into: Set<string>;
  /** Other stacks the spec references: stack name -> one reference, for messages. */
  readonly stacks: Map<string, string>;
  readonly stack: TerraformStack;
  readonly where: string;
}

/**
 * Collects the addresses a spec references and strips the stack marker. A reference to a construct of
 * another stack of the app becomes a cross-stack reference (`{ $ref, attr, stack }`), read from that
 * stack's state; one to a construct of another app is refused.
 */
function collectRefs(v: unknown, scan: RefScan): unknown {
  if (isAttrRef(v)) {
    const ref = v as { $ref: string; attr: string; $stack?: string; secret?: boolean };
    const secret = ref.secret ? { secret: true } : {};
    if (ref.$stack !== undefined && ref.$stack !== scan.stack.node.path) {
      const other = stackAt(scan.stack, ref.$stack);
      if (!other) {
        throw new Error(`${scan.where}: refers to ${ref.$stack}/${ref.$ref}, a construct of another app; ` +
          'converge resolves references between the stacks of one app only');
      }
      scan.stacks.set(other.node.id, `${other.node.id}/${ref.$ref}.${ref.attr}`);
      return { $ref: ref.$ref, attr: ref.attr, stack: other.node.id, ...secret };
    }
    scan.into.add(ref.$ref);
    return { $ref: ref.$ref, attr: ref.attr, ...secret };
  }
  if (Array.isArray(v)) return v.map((x) => collectRefs(x, scan));
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, collectRefs(x, scan)]));
  }
  return v;
}

/** The stack at construct path `path` in the app of `from`, if that app has one there. */
function stackAt(from: TerraformStack, path: string): TerraformStack | undefined {
  let node: IConstruct | undefined = from.node.root;
  for (const id of path.split('/')) node = node?.node.tryFindChild(id);
  return node && TerraformStack.isStack(node) ? node : undefined;
}

/** Per app: consumer stack -> producer stack -> the first reference found (a construct path), for messages. */
const stackEdges = new WeakMap<IConstruct, Map<string, Map<string, string>>>();

/**
 * Records that `consumer` reads values from stack `producer`, refusing a cycle between stacks: the
 * producer is applied first, so two stacks that read from each other could never be applied.
 */
function recordStackDependency(consumer: TerraformStack, producer: string, why: string): void {
  const root = consumer.node.root;
  let edges = stackEdges.get(root);
  if (!edges) stackEdges.set(root, edges = new Map());
  const from = consumer.node.id;
  let out = edges.get(from);
  if (!out) edges.set(from, out = new Map());
  if (!out.has(producer)) out.set(producer, why);
  // A path from the producer back to the consumer closes a cycle.
  const back = (at: string, seen: Set<string>): string[] | undefined => {
    if (at === from) return [at];
    if (seen.has(at)) return undefined;
    seen.add(at);
    for (const next of edges!.get(at)?.keys() ?? []) {
      const rest = back(next, seen);
      if (rest) return [at, ...rest];
    }
    return undefined;
  };
  const cycle = back(producer, new Set());
  if (cycle) {
    const chain = [from, ...cycle];
    const steps = chain.slice(0, -1).map((s, i) => edges!.get(s)!.get(chain[i + 1])!);
    throw new Error(`references between stacks form a cycle (${chain.join(' -> ')}): ${steps.join('; ')}. ` +
      'converge applies a stack after the stacks it reads from, so stacks must not read from each other ' +
      '(move the constructs that refer to each other into one stack)');
  }
}
