import { Construct } from 'constructs';
import { FieldSchema } from '../../core/schema';
import { reject } from '../../core/constructs/validation';

/** A name of the platform: letters, numbers, `-` and `_` (organizations, pools, workspaces, modules); a name is an identity. */
export const NAME_RULE = { identity: true, pattern: /^[A-Za-z0-9_-]+$/, patternRule: "may contain only letters, numbers, '-' and '_'" } as const;

/**
 * The organization a platform object belongs to: its name in the spec, and in no API body (it is in
 * the request path). The object cannot move to another organization: a change replaces it.
 */
export const ORGANIZATION_FIELD: FieldSchema = { type: 'string', required: true, replace: true, local: true, ...NAME_RULE };

/**
 * The string a reference prop stands for in the spec: the interface's `key` (an organization's
 * `organizationName`); a value that is no such reference is passed on as it is, for `useReference`
 * to refuse.
 */
export function refKey(v: unknown, key: string): unknown {
  if (v !== null && typeof v === 'object' && typeof (v as Record<string, unknown>)[key] === 'string') return (v as Record<string, unknown>)[key];
  return v;
}

/**
 * Checks that a reference prop holds an object of the interface (one with a string `key`), and makes
 * `scope` depend on it when it is a construct (a managed object or a lookup): it is applied after it.
 */
export function useReference(scope: Construct, field: string, v: unknown, key: string, what: string): void {
  if (v === undefined) return;
  const ok = v !== null && typeof v === 'object' && typeof (v as Record<string, unknown>)[key] === 'string';
  if (!ok) return reject(scope, field, `must be ${what} (got ${typeof v === 'string' ? `"${v}"` : v === null ? 'null' : typeof v})`);
  if (Construct.isConstruct(v)) scope.node.addDependency(v);
}
