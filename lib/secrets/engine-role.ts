import { Construct, IConstruct } from 'constructs';
import { DataSource, Resource, ResourceProps } from '../core/constructs/resource';
import { ValidationError } from '../core/constructs/validation';
import { validateProps } from '../core/schema/validate-props';
import { checkOptString } from './prop-checks';
import { SEGMENT_NAME_FIELD, mountField } from './engine-fields';
import { SecretsProvider } from './provider';

/** A role of a secrets engine (`{mount}/<section>/<name>`) that hands out credentials. */
export interface ISecretsEngineRole extends IConstruct {
  /** Mount path of the engine. */
  readonly mount: string;
  /** Name of the role. */
  readonly roleName: string;
}

/** Base of the roles of secrets engines: a mount and a name, which credential data sources read. */
export abstract class SecretsEngineRole extends Resource implements ISecretsEngineRole {
  /** Mount path of the engine. */
  public readonly mount: string;
  /** Name of the role. */
  public readonly name: string;
  /** Name of the role. */
  public readonly roleName: string;

  protected constructor(scope: Construct, id: string, kind: string, props: ResourceProps, mount: string, name: string, durationProps: string[], provider?: SecretsProvider) {
    super(scope, id, kind, 'secrets', props, provider);
    // The schema takes a duration as a string or seconds; these props are typed strings (a JavaScript caller's number is refused).
    for (const f of durationProps) checkOptString(this, f, (props as Record<string, unknown>)[f]);
    this.mount = mount;
    this.name = name;
    this.roleName = name;
  }
}

/** What every credential data source of a secrets engine takes. */
export interface SecretsEngineCredentialsProps {
  /** The role whose credentials are read. */
  readonly role: ISecretsEngineRole;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * Base of the credential data sources of secrets engines (`GET {mount}/creds/<role>`): read after the
 * role they are given; the secret outputs are sensitive (encrypted in state, masked everywhere) and
 * flow as secrets into the props of other constructs. Lease outputs say how long the credentials stay good.
 */
export abstract class SecretsEngineCredentials extends DataSource {
  /** Mount path of the engine. */
  public readonly mount: string;
  /** Name of the role read. */
  public readonly roleName: string;

  protected constructor(scope: Construct, id: string, kind: string, props: SecretsEngineCredentialsProps) {
    super(scope, id, kind, 'secrets', props.provider, props);
    const role = props.role as Partial<ISecretsEngineRole> | null;
    if (!(role !== null && typeof role === 'object' && typeof role.mount === 'string' && typeof role.roleName === 'string')) {
      throw new ValidationError(this, 'role', `must be a role of the engine (the role construct, or one its fromName looks up), not ${Array.isArray(role) ? 'a list' : JSON.stringify(role)}`);
    }
    this.mount = props.role.mount;
    this.roleName = props.role.roleName;
    validateProps(this, { mount: mountField('') }, { mount: this.mount }, 'role.');
    validateProps(this, { role: SEGMENT_NAME_FIELD }, { role: this.roleName });
    // Read after the role (a construct of this app, or its lookup).
    if (Construct.isConstruct(props.role)) this.node.addDependency(props.role);
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    return { mount: this.mount, role: this.roleName };
  }
}

/**
 * Base of the credential data sources whose credentials come with a lease (`LEASE_OUTPUTS`): issued by
 * `converge apply` and kept in state while more than a third of the lease is left.
 */
export abstract class LeasedSecretsEngineCredentials extends SecretsEngineCredentials {
  protected constructor(scope: Construct, id: string, kind: string, props: SecretsEngineCredentialsProps) {
    super(scope, id, kind, props);
  }

  /** The lease of the credentials ('' when they have none). */
  public get leaseId(): string {
    return this._attrString('leaseId');
  }

  /** Seconds the lease runs (0: no lease). */
  public get leaseDuration(): number {
    return this._attrNumber('leaseDuration');
  }

  /** When the credentials were read (ISO 8601): their lease runs from then. */
  public get leaseStartTime(): string {
    return this._attrString('leaseStartTime');
  }

  /** When the lease ends (ISO 8601; '' when it has no end). */
  public get leaseExpiresAt(): string {
    return this._attrString('leaseExpiresAt');
  }
}
