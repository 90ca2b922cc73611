import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { check } from '../../core/constructs/validation';
import { DirectoryConfig } from './directory-config';
import { checkMount } from '../kv/kv-validation';
import { checkOptBoolean, checkSeconds, checkSegmentName } from '../prop-checks';
import { SecretsProvider } from '../provider';
import { normalDurationString } from '../../core/duration';
import { stringSet } from '../../core/string-set';

/** Props of a directory library set (`{mount}/library/<name>`). */
export interface DirectoryLibrarySetProps extends ResourceProps {
  /**
   * Mount path of the directory engine (taken from `config` when given).
   * @default 'directory'
   */
  readonly mount?: string;
  /**
   * The engine configuration the set needs; sets `mount` and orders the set after it.
   * @default - none
   */
  readonly config?: DirectoryConfig;
  /** Set name (a path segment). A change replaces the set. */
  readonly name: string;
  /** Service accounts lent by the set: they must exist in the directory and belong to no other set. */
  readonly serviceAccountNames: string[];
  /**
   * Longest single check-out (`"0s"`: unlimited).
   * @default '24h'
   */
  readonly ttl?: string;
  /**
   * Longest check-out with renewals (`"0s"`: unlimited).
   * @default '24h'
   */
  readonly maxTtl?: string;
  /**
   * Whether anyone (not only the borrower) may check an account in.
   * @default false
   */
  readonly disableCheckInEnforcement?: boolean;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * A library set of the directory engine: service accounts that callers check out and in.
 *
 * @example
 * new secrets.DirectoryLibrarySet(stack, 'batch-accounts', {
 *   name: 'batch',
 *   serviceAccountNames: ['svc-batch-1', 'svc-batch-2'],
 *   ttl: '1h',
 * });
 */
export class DirectoryLibrarySet extends Resource {
  public readonly mount: string;
  public readonly name: string;
  private readonly props: DirectoryLibrarySetProps;

  constructor(scope: Construct, id: string, props: DirectoryLibrarySetProps) {
    super(scope, id, 'secrets.DirectoryLibrarySet', 'secrets', props, props.provider);
    this.props = props;
    this.mount = props.config?.mount ?? props.mount ?? 'directory';
    this.name = props.name;
    check(!(props.config && props.mount && props.mount !== props.config.mount), this, 'mount',
      `"${props.mount}" differs from the mount of \`config\` ("${props.config?.mount}")`);
    checkMount(this, this.mount);
    checkSegmentName(this, 'name', props.name);
    check(Array.isArray(props.serviceAccountNames) && props.serviceAccountNames.length > 0, this, 'serviceAccountNames',
      'must name at least one service account');
    props.serviceAccountNames.forEach((a, i) => check(typeof a === 'string' && a.length > 0 && !a.includes(','), this,
      `serviceAccountNames[${i}]`, 'must be a non-empty name without ","'));
    check(new Set(props.serviceAccountNames).size === props.serviceAccountNames.length, this, 'serviceAccountNames', 'must not repeat a name');
    checkOptBoolean(this, 'disableCheckInEnforcement', props.disableCheckInEnforcement);
    const ttl = checkSeconds(this, 'ttl', props.ttl ?? '24h');
    const max = checkSeconds(this, 'maxTtl', props.maxTtl ?? '24h');
    check(max === 0 || (ttl !== 0 && ttl <= max), this, 'ttl', `"${props.ttl ?? '24h'}" must not be longer than maxTtl "${props.maxTtl ?? '24h'}"`);
    if (props.config) this.node.addDependency(props.config);
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    const p = this.props;
    return {
      mount: this.mount,
      name: this.name,
      serviceAccountNames: stringSet(p.serviceAccountNames),
      ttl: normalDurationString(p.ttl ?? '24h'),
      maxTtl: normalDurationString(p.maxTtl ?? '24h'),
      disableCheckInEnforcement: p.disableCheckInEnforcement ?? false,
    };
  }
}
