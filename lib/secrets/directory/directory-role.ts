import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { check } from '../../core/constructs/validation';
import { DirectoryConfig } from './directory-config';
import { checkMount } from '../kv/kv-validation';
import { SecretsProvider } from '../provider';
import { normalDurationString } from '../../core/duration';
import { checkSeconds, checkSegmentName } from '../prop-checks';

/** Props of a directory engine role (`{mount}/roles/<name>`). */
export interface DirectoryRoleProps extends ResourceProps {
  /**
   * Mount path of the directory engine (taken from `config` when given).
   * @default 'directory'
   */
  readonly mount?: string;
  /**
   * The engine configuration the role needs; sets `mount` and orders the role after it.
   * @default - none
   */
  readonly config?: DirectoryConfig;
  /** Role name (a path segment). A change replaces the role. */
  readonly name: string;
  /** The service account whose password the role manages; must already exist in the directory. */
  readonly serviceAccountName: string;
  /**
   * Password ttl: after it the password is rotated on the next credentials request.
   * @default - the configuration's ttl (then not compared, as it follows the configuration)
   */
  readonly ttl?: string;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * A role of the directory engine: the service manages (and rotates) one service account's password.
 *
 * @example
 * new secrets.DirectoryRole(stack, 'backup', { name: 'backup', serviceAccountName: 'svc-backup', ttl: '24h' });
 */
export class DirectoryRole extends Resource {
  public readonly mount: string;
  public readonly name: string;
  private readonly props: DirectoryRoleProps;

  constructor(scope: Construct, id: string, props: DirectoryRoleProps) {
    super(scope, id, 'secrets.DirectoryRole', 'secrets', props, props.provider);
    this.props = props;
    this.mount = props.config?.mount ?? props.mount ?? 'directory';
    this.name = props.name;
    check(!(props.config && props.mount && props.mount !== props.config.mount), this, 'mount',
      `"${props.mount}" differs from the mount of \`config\` ("${props.config?.mount}")`);
    checkMount(this, this.mount);
    checkSegmentName(this, 'name', props.name);
    check(typeof props.serviceAccountName === 'string' && props.serviceAccountName.length > 0, this, 'serviceAccountName', 'must not be empty');
    if (props.ttl !== undefined) checkSeconds(this, 'ttl', props.ttl);
    if (props.config) this.node.addDependency(props.config);
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    return {
      mount: this.mount,
      name: this.name,
      serviceAccountName: this.props.serviceAccountName,
      ...(this.props.ttl !== undefined ? { ttl: normalDurationString(this.props.ttl) } : {}),
    };
  }
}
