import { FieldSchema, FieldsSchema, KindSchema, OutputSchema } from '../../core/schema';
import { EntryKind } from '../compiler/entries';
import { MESH_GATEWAY_MODES } from '../shared/mesh-fields';

/**
 * A mesh configuration-entry kind's one declaration: the entry's fields in the mesh API's PascalCase,
 * and the mesh system's kind of entry it manages (`service-defaults`, …).
 */
export interface ConfigEntrySchema extends KindSchema {
  readonly entryKind: EntryKind;
  /**
   * The kinds of entries, of the services this entry names, that are written before it and removed
   * after it (of proxy-defaults: the one there is), because its chain needs them: the defaults that
   * decide the protocol, the resolvers that define subsets.
   */
  readonly orderedAfter: readonly EntryKind[];
}

/** What a chain needs before a resolver: the defaults that decide its protocol. */
export const DEFAULTS_KINDS: EntryKind[] = ['proxy-defaults', 'service-defaults'];
/** What a chain needs before a splitter or router: the defaults, and the resolvers whose subsets it names. */
export const DEFAULTS_AND_RESOLVER_KINDS: EntryKind[] = [...DEFAULTS_KINDS, 'service-resolver'];

/** An optional string the mesh omits when empty (Go's `omitempty`): read back as `""`. */
export const OPTIONAL_STRING: FieldSchema = { type: 'string', default: '' };

/** A `MeshGatewayConfig`: absent (`null`) when no mode is set. */
export const MESH_GATEWAY: FieldSchema = {
  type: 'object', default: null, fields: { mode: { type: 'string', oneOf: MESH_GATEWAY_MODES, default: '' } },
};

/** The fields every entry has: its identity (a change replaces the entry) and free-form metadata. */
export const ENTRY_FIELDS: FieldsSchema = {
  name: {
    // A quote, backslash or control character would write rules of its own into the ACL policy `converge policy` prints.
    type: 'string', required: true, replace: true, identity: true, pattern: /^(?!\.\.?$)[^/\u0000-\u001f\u007f"\\*{}]*$/,
    patternRule: 'must not contain "/", a control character, a quote, a backslash, "*", "{" or "}", nor be "." or ".." ' +
      '(the API addresses the entry by name in its URL path, and the name is quoted in an ACL policy)',
  },
  namespace: { type: 'string', default: 'default', replace: true, identity: true },
  meta: { type: 'string-map', default: {} },
};

/** What the mesh fills in on every write. */
const ENTRY_OUTPUTS: Readonly<Record<string, OutputSchema>> = {
  createIndex: { type: 'number' },
  modifyIndex: { type: 'number' },
};

/** A configuration-entry kind: the common fields, then the kind's own. */
export function entrySchema(kind: string, entryKind: EntryKind, fields: FieldsSchema,
  o: { common?: FieldsSchema; orderedAfter?: EntryKind[] } = {}): ConfigEntrySchema {
  return {
    kind,
    api: 'mesh',
    wireCase: 'pascal',
    entryKind,
    orderedAfter: o.orderedAfter ?? [],
    fields: { ...(o.common ?? ENTRY_FIELDS), ...fields },
    outputs: ENTRY_OUTPUTS,
    unmanaged: { Kind: 'the entry kind, set by the handler from the construct kind' },
  };
}
