import { FieldSchema, FieldsSchema, KindSchema } from '../../core/schema';

/**
 * Field declarations the secrets engines share: where an engine is mounted and the name of an object
 * the service addresses as one path segment. Both are path parts, never body fields (`local`), and
 * changing either names another object (`replace`).
 */

/**
 * Characters a path segment must not hold: control characters, `"` and `\` (they would end or
 * escape the quoted path of an ACL policy, so that `converge policy` printed rules of the
 * path's choosing), and `*`, `+`, `{`, `}` (an ACL glob, a segment wildcard, a policy template):
 * in a policy they would grant more than the path itself. The real service takes them in a KV
 * path; converge does not, so that the policy it prints grants exactly the paths declared.
 */
export const POLICY_UNSAFE_CHARS = /[\u0000-\u001f\u007f"\\*+{}]/;
const SEGMENT = '[^/\\u0000-\\u001f\\u007f"\\\\*+{}]+';

/**
 * Segments separated by `/`: not empty, no leading or trailing `/`, no empty, `.` or `..` segment,
 * none of `POLICY_UNSAFE_CHARS` (a mount path, a KV key path).
 */
export const SEGMENTED_PATH = new RegExp(`^(?!\\.\\.?(?:/|$))${SEGMENT}(?:/(?!\\.\\.?(?:/|$))${SEGMENT})*$`);
const SEGMENTED_RULE = 'not empty, no leading or trailing "/", no empty, "." or ".." segment, ' +
  'no control character, quote, backslash, "*", "+", "{" or "}" (they would change the ACL policy converge policy prints)';

/**
 * What the service takes as the name of a role, connection, set or method (a path segment): ASCII
 * letters, digits, `_`, `-` and `.`, starting and ending with a letter, digit or `_`.
 */
export const SEGMENT_NAME = /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?$/;
export const SEGMENT_NAME_RULE = 'must be one path segment: letters, digits, "_", "-" and ".", starting and ending with a letter, digit or "_" ' +
  '(it must not contain "/", spaces, "%" or unicode)';

/** The mount of an engine, `fallback` when not given. */
export function mountField(fallback: string): FieldSchema {
  return {
    type: 'string', local: true, replace: true, identity: true, default: fallback, pattern: SEGMENTED_PATH,
    patternRule: `must be a mount path: ${SEGMENTED_RULE}`,
  };
}

/** A KV key path below the mount, part of every request's path; a change replaces the secret. */
export const KV_PATH_FIELD: FieldSchema = {
  type: 'string', required: true, local: true, replace: true, identity: true, pattern: SEGMENTED_PATH,
  patternRule: `must be segments separated by "/": ${SEGMENTED_RULE} (a trailing "/" names a folder)`,
};

/** An object name that is one path segment of the API (a role, connection or set name). */
export const SEGMENT_NAME_FIELD: FieldSchema = {
  type: 'string', required: true, local: true, replace: true, identity: true, pattern: SEGMENT_NAME, patternRule: SEGMENT_NAME_RULE,
};

/** A string that must not be empty. */
export const NON_EMPTY = { pattern: /\S/, patternRule: 'must not be empty' } as const;

/**
 * The schema of a data source that reads the credentials of an engine object: the engine's mount and
 * the object's name (`nameField`), any `extra` request field, and the outputs (secrets `sensitive`).
 */
export function credentialsSchema(kind: string, nameField: string, outputs: KindSchema['outputs'], extra: FieldsSchema = {}): KindSchema {
  return {
    kind, api: 'secrets', wireCase: 'snake',
    fields: { mount: { type: 'string' }, [nameField]: { type: 'string' }, ...extra },
    outputs,
  };
}
