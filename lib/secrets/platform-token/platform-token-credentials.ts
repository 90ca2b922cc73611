import { Construct } from 'constructs';
import { LeasedSecretsEngineCredentials } from '../shared/engine-role';
import { SecretsProvider } from '../provider';
import { PLATFORM_TOKEN_CREDENTIALS } from './platform-token-credentials.schema';
import { IPlatformTokenRole } from './platform-token-role';

/** Props of the PlatformTokenCredentials data source. */
export interface PlatformTokenCredentialsProps {
  /** The role whose token is read: a `PlatformTokenRole` of this app, or `PlatformTokenRole.fromName`. */
  readonly role: IPlatformTokenRole;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * A token of a platform-token role (`GET {mount}/creds/<role>`), read at plan time, or during the apply
 * that creates or changes the role. The token is sensitive: kept encrypted in state, masked in plans and
 * output, and a secret wherever it flows (pass `token` to another construct's prop).
 *
 * A user role makes a new token on each read, under a lease: the plans after an apply keep the token in
 * state while more than a third of its lease is left, then read a new one. An organization or team role
 * has one stored token, without a lease, which the service hands out until the role is rotated: it is read
 * on each plan (no new token is made), so that a rotation reaches the constructs that use it.
 *
 * @example
 * const role = new secrets.PlatformTokenRole(stack, 'ci-role', { name: 'ci', organization: 'acme' });
 * const creds = new secrets.PlatformTokenCredentials(stack, 'ci-token', { role });
 * // creds.token feeds another construct's prop, as a secret.
 */
export class PlatformTokenCredentials extends LeasedSecretsEngineCredentials {
  constructor(scope: Construct, id: string, props: PlatformTokenCredentialsProps) {
    super(scope, id, PLATFORM_TOKEN_CREDENTIALS.kind, props);
  }

  /** The token (sensitive). */
  public get token(): string {
    return this._attrString('token');
  }

  /** The token's id on the platform (`at-…`). */
  public get tokenId(): string {
    return this._attrString('tokenId');
  }

  /** The organization of an organization or team token ('' for a user token). */
  public get organization(): string {
    return this._attrString('organization');
  }

  /** The team of a team token ('' otherwise). */
  public get teamId(): string {
    return this._attrString('teamId');
  }
}
