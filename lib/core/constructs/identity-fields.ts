import { Token } from 'cdktf';
import { Construct, IConstruct } from 'constructs';
import { FieldsSchema } from '../schema/kind-schema';
import { attrOfToken } from './attr-token';
import { SecretValue } from './secret-value';
import { reject } from './validation';

/** A construct that can say whether one of its outputs is a secret (a converge construct). */
interface SensitiveOutputs {
  _outputIsSensitive(attr: string): boolean;
}

/**
 * Refuses a secret in a field of an object's identity (`identity` in its schema: a KV path, a mount,
 * a role or entry name). An identity is the object's id in state, in plans and in `state list`, where
 * it is kept and printed in clear: a secret there would leak. Secrets are a `SecretValue` and a
 * reference to an output its construct declares sensitive (a `KvSecretData` field).
 */
export function checkIdentityFields(scope: Construct, fields: FieldsSchema, props: Record<string, unknown>): void {
  for (const [key, field] of Object.entries(fields)) {
    if (!field.identity) continue;
    const secret = secretIn(scope, props[key]);
    if (secret) {
      reject(scope, key, 'is part of the object\'s identity (kept in clear in state and printed in plans), '
        + `so it cannot be a secret (got ${secret})`);
    }
  }
}

/** What secret a value is, in words; undefined when it is none. */
function secretIn(scope: Construct, v: unknown): string | undefined {
  if (v instanceof SecretValue) {
    const ref = (v.toJSON() as { $ref?: string; attr?: string });
    return ref.$ref ? `SecretValue.resourceAttribute(${ref.$ref}.${ref.attr})` : 'a SecretValue';
  }
  if ((typeof v !== 'string' && typeof v !== 'number') || !Token.isUnresolved(v)) return undefined;
  const ref = attrOfToken(v, `${scope.node.path}: a field`);
  if (!ref) return undefined;
  const target = constructAt(scope, ref.$stack === undefined ? ref.$ref : `${ref.$stack}/${ref.$ref}`);
  const sensitive = (target as Partial<SensitiveOutputs> | undefined)?._outputIsSensitive?.(ref.attr);
  return sensitive ? `a reference to ${ref.$ref}.${ref.attr}, a sensitive value` : undefined;
}

/** The construct at an absolute construct path of the app. */
function constructAt(scope: Construct, path: string): IConstruct | undefined {
  let node: IConstruct | undefined = scope.node.root;
  for (const id of path.split('/')) node = node?.node.tryFindChild(id);
  return node;
}
