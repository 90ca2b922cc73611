import { Construct } from 'constructs';
import { ValidationError } from '../core/constructs/validation';
import { ISecretsMount } from './sys/secrets-mount';

/** Props that name an engine's mount by path (`mount`) or by reference (`secretsMount`). */
interface MountChoice {
  readonly mount?: string;
  readonly secretsMount?: ISecretsMount;
}

/**
 * The props as the schema takes them: `secretsMount` becomes `mount`, a reference to the mount's
 * path, so that the construct is planned as new until the mount exists (its reads wait for it).
 */
export function mountFromRef<T extends MountChoice>(props: T): Omit<T, 'secretsMount'> {
  const { secretsMount, ...rest } = props;
  return secretsMount ? { ...rest, mount: secretsMount.mountPath } : rest;
}

/** Refuses both forms at once; a construct placed in a mount by reference depends on it. */
export function useMountRef(scope: Construct, props: MountChoice): void {
  if (!props.secretsMount) return;
  if (props.mount !== undefined) throw new ValidationError(scope, 'secretsMount', 'cannot be given with mount: give either mount (a path) or secretsMount (a SecretsMount)');
  scope.node.addDependency(props.secretsMount);
}
