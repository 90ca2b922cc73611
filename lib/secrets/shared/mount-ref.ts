import { Token } from 'cdktf';
import { Construct, IConstruct } from 'constructs';
import { ValidationError } from '../../core/constructs/validation';
import { ISecretsMount } from '../sys/secrets-mount';

/** Props that name an engine's mount by path (`mount`) or by reference (`secretsMount`). */
interface MountChoice {
  readonly mount?: string;
  readonly secretsMount?: ISecretsMount;
}

/**
 * The engine a construct belongs to: the mount types that serve it (the emulator's name first, then
 * the real service's names for the same engine) and the default mount path.
 */
export interface EngineMount {
  readonly types: readonly string[];
  readonly defaultMount: string;
}

export const KV_MOUNT: EngineMount = { types: ['kv', 'kv-v2'], defaultMount: 'secret' };
export const TOTP_MOUNT: EngineMount = { types: ['totp'], defaultMount: 'totp' };
export const DATABASE_MOUNT: EngineMount = { types: ['database'], defaultMount: 'database' };
export const DIRECTORY_MOUNT: EngineMount = { types: ['directory', 'ldap', 'openldap', 'ad'], defaultMount: 'directory' };
export const PLATFORM_TOKEN_MOUNT: EngineMount = { types: ['platform', 'terraform'], defaultMount: 'platform' };
export const MESH_TOKEN_MOUNT: EngineMount = { types: ['mesh', 'consul'], defaultMount: 'mesh' };

/**
 * The props as the schema takes them: `secretsMount` becomes `mount`, a reference to the mount's
 * path, so that the construct is planned as new until the mount exists (its reads wait for it).
 */
export function mountFromRef<T extends MountChoice>(props: T): Omit<T, 'secretsMount'> {
  const { secretsMount, ...rest } = props;
  return isMount(secretsMount) ? { ...rest, mount: secretsMount.mountPath } : rest;
}

/** The mount path a construct is placed in: the reference's, else `mount`, else the engine's default. */
export function mountPathOf(props: MountChoice, engine: EngineMount): string {
  return isMount(props.secretsMount) ? props.secretsMount.mountPath : props.mount ?? engine.defaultMount;
}

/** Which `SecretsMount` each construct was placed in by reference: a role checks its connection's against its own. */
const placedIn = new WeakMap<IConstruct, ISecretsMount>();

/** The `SecretsMount` a construct of this app was placed in by reference, if any. */
export function mountRefOf(c: unknown): ISecretsMount | undefined {
  return Construct.isConstruct(c) ? placedIn.get(c) : undefined;
}

/**
 * Checks a `secretsMount`: a SecretsMount, not given with `mount`, of a type that serves `engine`.
 * The construct then depends on it (created after it, destroyed before it).
 */
export function useMountRef(scope: Construct, props: MountChoice, engine: EngineMount): void {
  const ref = props.secretsMount;
  if (ref === undefined) return;
  if (!isMount(ref)) throw new ValidationError(scope, 'secretsMount', `must be a SecretsMount of this app, not ${JSON.stringify(ref)}`);
  if (props.mount !== undefined) throw new ValidationError(scope, 'secretsMount', 'cannot be given with mount: give either mount (a path) or secretsMount (a SecretsMount)');
  checkType(scope, 'secretsMount', ref, 'mount', engine.types);
  placedIn.set(scope, ref);
  scope.node.addDependency(ref);
}

/**
 * Refuses a mount (or auth method) whose `type` does not serve the construct, when the type is known
 * at synth: the mismatch would otherwise surface only at apply, as the service's 404 or 405.
 */
export function checkType(scope: Construct, field: string, ref: IConstruct & { readonly type?: string }, what: string, types: readonly string[]): void {
  const type = ref.type;
  if (typeof type !== 'string' || Token.isUnresolved(type) || types.includes(type)) return;
  const wanted = types.map((t) => `"${t}"`).join(' or ');
  throw new ValidationError(scope, field, `is the ${type} ${what} ${ref.node.path}: ${scope.constructor.name} needs a ${what} of type ${wanted}`);
}

/**
 * Refuses a `secretsMount` other than the one the construct's parent object (a role's connection or
 * engine configuration) was placed in: the role lives in its parent's mount.
 */
export function checkSameMount(scope: Construct, props: MountChoice, parent: IConstruct & { readonly mount: string }, parentField: string): void {
  const ref = props.secretsMount;
  if (!isMount(ref)) return;
  if (mountRefOf(parent) === ref) return;
  throw new ValidationError(scope, 'secretsMount', `is ${ref.node.path}, not the mount of \`${parentField}\` (${describeMount(parent)}): give one of them`);
}

/** The mount of a construct for a message: the `SecretsMount` it was placed in (its path is a reference), else its path. */
export function describeMount(c: IConstruct & { readonly mount: string }): string {
  const ref = mountRefOf(c);
  return ref ? ref.node.path : `the path "${c.mount}"`;
}

function isMount(v: unknown): v is ISecretsMount {
  return Construct.isConstruct(v) && typeof (v as Partial<ISecretsMount>).mountPath === 'string';
}
