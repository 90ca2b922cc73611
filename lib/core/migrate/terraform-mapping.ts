/**
 * How a Terraform provider's resource type becomes a converge construct (`converge migrate terraform`).
 * Each domain declares one mapping per resource type beside its kinds (`lib/<domain>/migrate/`); the
 * CLI collects them. A mapping never sees code: it answers the construct's props as values and the
 * markers below (a secret read from the environment, a reference to another construct, an enum member).
 */

/** One resource instance of a Terraform state, in either shape (`state pull` or `show -json`). */
export interface TfResource {
  /** `tfe_organization.main`, `module.app.vault_kv_secret_v2.db["x"]`. */
  readonly address: string;
  readonly mode: 'managed' | 'data';
  readonly type: string;
  readonly name: string;
  /** `count` / `for_each` key, when there is one. */
  readonly indexKey?: string | number;
  /** `registry.terraform.io/hashicorp/tfe`. */
  readonly provider: string;
  /** The attributes as the provider's schema names them. */
  readonly values: Record<string, unknown>;
  /** The module path (`module.app`), empty at the root. */
  readonly module: string;
}

/** A value the generated code reads from the environment (`SecretValue.fromEnv`): never written. */
export class SecretFromEnv {
  constructor(
    /** The variable's name. */
    public readonly name: string,
    /** Where the value is in the old state: the attribute path under the resource. */
    public readonly attributePath: string,
    /** The old state's value: used in memory only (import records its HMAC), never written or printed. */
    public readonly oldValue: string,
  ) {}
}

/** The construct made for another resource of the state (a typed reference, e.g. `organization: org`). */
export class ConstructRef {
  constructor(public readonly address: string, /** a property of it (`name`), or the construct itself */ public readonly attr?: string) {}
}

/** A member of one of converge's enums: `platform.CollaboratorAuthPolicy.TWO_FACTOR_MANDATORY`. */
export class EnumMember {
  constructor(public readonly enumName: string, public readonly member: string, public readonly value: string) {}
}

/** An existing object the code refers to but does not manage: `platform.Organization.fromName(this, id, 'acme')`. */
export class ExistingLookup {
  constructor(
    public readonly className: string,
    public readonly method: string,
    public readonly constructId: string,
    public readonly args: readonly unknown[],
  ) {}
}

/** A map whose keys are data (metadata keys, subset names): kept as they are in every language. */
export class MapLiteral {
  constructor(public readonly entries: Record<string, unknown>) {}
}

/** What a mapping answers for one resource. */
export type Mapped = {
  /** The converge kind (`platform.Organization`); its handler reads the object for the import. */
  readonly kind: string;
  /** The construct's class, namespaced as exported (`platform.Organization`). */
  readonly className: string;
  /** Its props: plain values and the markers above. */
  readonly props: Record<string, unknown>;
  /** The id `converge import` takes for it. */
  readonly importId: string;
} | {
  /** Why it is not taken (no such kind, an attribute it cannot express). */
  readonly skip: string;
};

/** What a mapping may ask about the rest of the state. */
export interface MigrationContext {
  /** A secret: read from the variable named after the resource and `attributePath`. */
  secret(resource: TfResource, attributePath: string, value: unknown): SecretFromEnv;
  /** The resource of `type` whose attributes match `where` (all of them), if the state holds it and it is taken. */
  find(type: string, where: Record<string, unknown>): TfResource | undefined;
  /** Any managed resource of the state of `type` matching `where`, taken or not (a registry module a no-code module names). */
  inState(type: string, where: Record<string, unknown>): TfResource | undefined;
  /** The converge organization for a name: the construct made for its tfe_organization, else a lookup of the existing one. */
  organization(name: string): ConstructRef | ExistingLookup;
}

/** The mapping of one provider resource type. */
export interface TerraformMapping {
  /** The provider's resource type (`tfe_organization`). */
  readonly type: string;
  /** When resources depend on others (an OAuth client on its organization): lower first. @default 1 */
  readonly order?: number;
  map(resource: TfResource, ctx: MigrationContext): Mapped;
}

/** A domain's mappings, as `DomainKinds` lists its kinds. */
export type DomainMigrations = readonly TerraformMapping[];
