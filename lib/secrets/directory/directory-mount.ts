import { Construct } from 'constructs';
import { check } from '../../core/constructs/validation';
import { checkSameMount, describeMount, DIRECTORY_MOUNT, mountPathOf, useMountRef } from '../shared/mount-ref';
import { ISecretsMount } from '../sys/secrets-mount';
import type { IDirectoryConfig } from './directory-config';

/**
 * The mount of a role or library set: from `config` when given (then ordered after it), else
 * `secretsMount` (then ordered after the mount), else `mount`.
 */
export function mountOfConfig(scope: Construct, props: { mount?: string; secretsMount?: ISecretsMount; config?: IDirectoryConfig }): string {
  const { config } = props;
  useMountRef(scope, props, DIRECTORY_MOUNT);
  if (config) checkSameMount(scope, props, config, 'config');
  check(!(config && props.mount && props.mount !== config.mount), scope, 'mount',
    `"${props.mount}" differs from the mount of \`config\` (${config ? describeMount(config) : ''})`);
  if (config) scope.node.addDependency(config);
  return config?.mount ?? mountPathOf(props, DIRECTORY_MOUNT);
}
