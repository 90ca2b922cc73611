import { Construct, IConstruct } from 'constructs';
import { DataSource, Resource, ResourceProps } from '../../core/constructs/resource';
import { ValidationError } from '../../core/constructs/validation';
import { validateProps } from '../../core/schema/validate-props';
import { checkOptString } from './prop-checks';
import { SEGMENT_NAME_FIELD, mountField } from './engine-fields';
import { LeasedCredential } from './leased-credential';
import { SecretsProvider } from '../provider';

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

/** The mount and name of the role a credential data source reads, checked; the data source is read after the role. */
function bindRole(ds: DataSource, props: SecretsEngineCredentialsProps): { mount: string; roleName: string } {
  const role = props.role as Partial<ISecretsEngineRole> | null;
  if (!(role !== null && typeof role === 'object' && typeof role.mount === 'string' && typeof role.roleName === 'string')) {
    throw new ValidationError(ds, 'role', `must be a role of the engine (the role construct, or one its fromName looks up), not ${Array.isArray(role) ? 'a list' : JSON.stringify(role)}`);
  }
  validateProps(ds, { mount: mountField('') }, { mount: role.mount }, 'role.');
  validateProps(ds, { role: SEGMENT_NAME_FIELD }, { role: role.roleName });
  // Read after the role (a construct of this app, or its lookup).
  if (Construct.isConstruct(props.role)) ds.node.addDependency(props.role);
  return { mount: role.mount, roleName: role.roleName };
}

/**
 * Base of the credential data sources of secrets engines (`GET {mount}/creds/<role>`): read after the
 * role they are given; the secret outputs are sensitive (encrypted in state, masked everywhere) and
 * flow as secrets into the props of other constructs.
 */
export abstract class SecretsEngineCredentials extends DataSource {
  /** Mount path of the engine. */
  public readonly mount: string;
  /** Name of the role read. */
  public readonly roleName: string;

  protected constructor(scope: Construct, id: string, kind: string, props: SecretsEngineCredentialsProps) {
    super(scope, id, kind, 'secrets', props.provider, props);
    const role = bindRole(this, props);
    this.mount = role.mount;
    this.roleName = role.roleName;
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    return { mount: this.mount, role: this.roleName };
  }
}

/**
 * Base of the credential data sources of secrets engines whose credentials come with a lease
 * (`LeasedCredential`): a role's credentials, issued by `converge apply` and kept in state while more
 * than a third of the lease is left. Lease outputs say how long the credentials stay good.
 */
export abstract class LeasedSecretsEngineCredentials extends LeasedCredential {
  /** Mount path of the engine. */
  public readonly mount: string;
  /** Name of the role read. */
  public readonly roleName: string;

  protected constructor(scope: Construct, id: string, kind: string, props: SecretsEngineCredentialsProps) {
    super(scope, id, kind, props, props.provider);
    const role = bindRole(this, props);
    this.mount = role.mount;
    this.roleName = role.roleName;
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    return { mount: this.mount, role: this.roleName };
  }
}
