import { Construct } from 'constructs';
import { DataSource } from '../../core/constructs/resource';
import { SecretsProvider } from '../provider';

/**
 * Base of the data sources whose credentials come with a lease (the outputs of `LEASE_OUTPUTS`): the
 * credentials of an engine's role, a secret id, an account checked out of a library set. `converge
 * apply` issues them and keeps them in state while more than a third of the lease is left.
 */
export abstract class LeasedCredential extends DataSource {
  /**
   * @param kind the data source's kind (`secrets.<Name>`)
   * @param props its props, as the schema takes them
   * @param provider how to reach the secrets service (default: the stack's)
   */
  protected constructor(scope: Construct, id: string, kind: string, props: any, provider?: SecretsProvider) {
    super(scope, id, kind, 'secrets', provider, props);
  }

  /** The lease of the credentials ('' when they have none). */
  public get leaseId(): string {
    return this._attrString('leaseId');
  }

  /** Seconds the lease runs (0: no lease, or no end). */
  public get leaseDuration(): number {
    return this._attrNumber('leaseDuration');
  }

  /** When the credentials were issued (ISO 8601): their lease runs from then. */
  public get leaseStartTime(): string {
    return this._attrString('leaseStartTime');
  }

  /** When the lease ends (ISO 8601; '' when it has no end). */
  public get leaseExpiresAt(): string {
    return this._attrString('leaseExpiresAt');
  }
}
