import { Construct } from 'constructs';
import { LeasedSecretsEngineCredentials } from '../shared/engine-role';
import { SecretsProvider } from '../provider';
import { APPROLE_SECRET_ID } from './approle-secret-id.schema';
import { AppRoleRole } from './approle-role';

/** Props of the AppRoleSecretId data source. */
export interface AppRoleSecretIdProps {
  /** The role whose secret id is issued. */
  readonly role: AppRoleRole;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * A secret id of an AppRole role (`POST auth/<mount>/role/<role>/secret-id`): with the role's
 * `roleId` it logs a machine in. Issued by `converge apply` (a plan never issues one) and kept in
 * state, encrypted, while more than a third of the role's `secretIdTtl` is left (for good when the
 * role's secret ids do not expire); a plan looks its accessor up and issues a new one when it was
 * destroyed outside converge. Destroy (and a replacement) destroys it. The secret id is sensitive:
 * masked in plans and output; its getter is a token other constructs' props take
 * (`SecretValue.resourceAttribute(secretId.secretId)` in a `KvSecret`).
 *
 * @example
 * const role = new secrets.AppRoleRole(stack, 'ci', { name: 'ci', secretIdTtl: '24h' });
 * const secretId = new secrets.AppRoleSecretId(stack, 'ci-secret', { role });
 * new secrets.KvSecret(stack, 'ci-login', {
 *   path: 'ci/login',
 *   data: { roleId: role.roleId, secretId: SecretValue.resourceAttribute(secretId.secretId) },
 * });
 */
export class AppRoleSecretId extends LeasedSecretsEngineCredentials {
  constructor(scope: Construct, id: string, props: AppRoleSecretIdProps) {
    super(scope, id, APPROLE_SECRET_ID.kind, props);
  }

  /** The secret id (sensitive). */
  public get secretId(): string {
    return this._attrString('secretId');
  }

  /** The secret id's accessor (not a secret): how it is looked up and destroyed. */
  public get secretIdAccessor(): string {
    return this._attrString('secretIdAccessor');
  }
}
