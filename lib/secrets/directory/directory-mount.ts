import { Construct } from 'constructs';
import { check } from '../../core/constructs/validation';
import type { IDirectoryConfig } from './directory-config';

/**
 * The mount of a role or library set: from `config` when given (then ordered after it), else `mount`.
 */
export function mountOfConfig(scope: Construct, props: { mount?: string; config?: IDirectoryConfig }): string {
  const { config } = props;
  check(!(config && props.mount && props.mount !== config.mount), scope, 'mount',
    `"${props.mount}" differs from the mount of \`config\` ("${config?.mount}")`);
  if (config) scope.node.addDependency(config);
  return config?.mount ?? props.mount ?? 'directory';
}
