/**
 * One declaration of a kind's fields, as a Terraform provider framework declares a resource schema:
 * what each field is, whether it is required or has a default, its name on the wire, whether it is
 * a secret, write-only or replaced on change, and the shape of nested structs. It drives the
 * construct's prop checks and rendering (with defaults), the diff's metadata (replace, sensitive)
 * and the handler's mapping to and from the API's bodies, so that a field is written once.
 */
import { ApiName } from '../model';

/** What a field holds. */
export type FieldType =
  /** A string; with `oneOf`, one of a closed set. */
  | 'string'
  /** A whole number (`min`/`max` bound it). */
  | 'integer'
  /** Any number. */
  | 'number'
  | 'boolean'
  /** A duration string (`"1h30m"`, `"3600"`), kept in converge's canonical form (`lib/core/duration.ts`). */
  | 'duration'
  /** A list of strings whose order matters. */
  | 'string-list'
  /** A list of strings whose order does not matter (sorted, duplicates dropped). */
  | 'string-set'
  /** A map of strings. */
  | 'string-map'
  /** A `SecretValue`. */
  | 'secret'
  /** A struct (`fields` gives its shape). */
  | 'object'
  /** A list of structs (`fields` gives the shape of each). */
  | 'object-list'
  /** A map of structs by key, the keys free (`fields` gives the shape of each value). */
  | 'object-map'
  /** Free-form JSON the API takes as is (a map of maps, a policy document). */
  | 'json';

/** One field of a kind (or of a nested struct). */
export interface FieldSchema {
  readonly type: FieldType;
  /** The prop must be given. */
  readonly required?: boolean;
  /**
   * Rendered when the prop is not given: the API's own default, so that the plan compares like with
   * like. `null` renders an explicit null; a function computes it from the other props.
   * Undefined: the field is left out of the spec.
   */
  readonly default?: unknown | ((props: Record<string, any>) => unknown);
  /** The field's name in the API's bodies, when it is not the prop's name. */
  readonly wire?: string;
  /** Its value is a secret: masked in plans, kept as an HMAC in state. */
  readonly sensitive?: boolean;
  /**
   * It may hold a `SecretValue` without being sensitive as a whole (a no-code variable's value: plain
   * text, or a secret for a sensitive variable). A secret source of the synthesized output is read only
   * in a field that is `sensitive`, of type `secret`, or this.
   */
  readonly mayHoldSecret?: boolean;
  /** The API takes it but never returns it: compared with what the last apply sent (an HMAC), not read. */
  readonly writeOnly?: boolean;
  /** The API cannot change it in place: a change replaces the object. */
  readonly replace?: boolean;
  /** The values a string may take. */
  readonly oneOf?: readonly string[];
  /** Lowest value of a number, or shortest duration in seconds. */
  readonly min?: number;
  /** Highest value of a number. */
  readonly max?: number;
  /** A rule a string must follow, with `patternRule` saying it in words. */
  readonly pattern?: RegExp;
  readonly patternRule?: string;
  /** The shape of a struct, or of each struct of a list or map. */
  readonly fields?: FieldsSchema;
  /**
   * Part of the object's identity (a mount, a KV path, a role or entry name): kept in clear as its id in
   * state and printed in plans, so a secret is refused here when the construct is made.
   */
  readonly identity?: boolean;
  /** Left out of every API body: the engine or the construct uses it (a KV secret's mount). */
  readonly local?: boolean;
}

/** Fields by prop name (the spec key), in the order the spec's body table lists them. */
export type FieldsSchema = Readonly<Record<string, FieldSchema>>;

/** An attribute other constructs may reference once the object exists (an id the server assigns). */
export interface OutputSchema {
  readonly type: 'string' | 'number' | 'boolean' | 'json';
  /** A secret (a generated token): kept encrypted in state, masked everywhere. */
  readonly sensitive?: boolean;
}

/** A kind's one declaration. */
export interface KindSchema {
  /** `platform.Organization`, `secrets.KvSecret`, …: the construct and its handler both take it from here. */
  readonly kind: string;
  readonly api: ApiName;
  /** How the API spells field names when `wire` is not given. */
  readonly wireCase: 'camel' | 'snake' | 'kebab' | 'pascal';
  readonly fields: FieldsSchema;
  readonly outputs?: Readonly<Record<string, OutputSchema>>;
  /**
   * Fields of the API's body that converge does not manage, each with the reason (read-only,
   * another construct's, deprecated): the spec test accepts them as known, so that a field missing
   * on either side still fails.
   */
  readonly unmanaged?: Readonly<Record<string, string>>;
}

/** The wire name of a field. */
export function wireName(schema: Pick<KindSchema, 'wireCase'>, key: string, field: FieldSchema): string {
  if (field.wire) return field.wire;
  if (!schema.wireCase || schema.wireCase === 'camel') return key;
  // Asked for every field of every object read or written: each name is converted once.
  const cased = `${schema.wireCase}\u0000${key}`;
  let name = wireNames.get(cased);
  if (name === undefined) {
    name = casedName(schema.wireCase, key);
    wireNames.set(cased, name);
  }
  return name;
}

const wireNames = new Map<string, string>();

function casedName(wireCase: KindSchema['wireCase'], key: string): string {
  switch (wireCase) {
    case 'snake': return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    case 'kebab': return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    case 'pascal': return key.charAt(0).toUpperCase() + key.slice(1);
    default: return key;
  }
}

/** Top-level fields whose change replaces the object. */
export function replaceFieldsOf(schema: KindSchema): string[] {
  return Object.entries(schema.fields).filter(([, f]) => f.replace).map(([k]) => k);
}

/** Top-level fields always masked (sensitive, or holding a secret). */
export function sensitiveFieldsOf(schema: KindSchema): string[] {
  return Object.entries(schema.fields).filter(([, f]) => f.sensitive || f.type === 'secret').map(([k]) => k);
}

/** Top-level fields the API never returns. */
export function writeOnlyFieldsOf(schema: KindSchema): string[] {
  return Object.entries(schema.fields).filter(([, f]) => f.writeOnly).map(([k]) => k);
}

/** Output attributes that are secrets. */
export function sensitiveOutputsOf(schema: KindSchema): string[] {
  return Object.entries(schema.outputs ?? {}).filter(([, o]) => o.sensitive).map(([k]) => k);
}
