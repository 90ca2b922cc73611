import { Construct } from 'constructs';
import { SecretsEngineCredentials } from '../shared/engine-role';
import { SecretsProvider } from '../provider';
import { DIRECTORY_CREDENTIALS } from './directory-credentials.schema';
import { IDirectoryRole } from './directory-role';

/** Props of the DirectoryCredentials data source. */
export interface DirectoryCredentialsProps {
  /** The role whose account's password is read (`DirectoryRole`, or one looked up with `DirectoryRole.fromName`). */
  readonly role: IDirectoryRole;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * The password of a directory role's service account (`GET {mount}/creds/<role>`), read at plan time.
 * The service rotates it on a read once the role's ttl has passed, not on every read, so each plan
 * reads it again and the constructs that use it follow a rotation. The passwords are sensitive:
 * masked in plans and output, encrypted in state.
 *
 * @example
 * const backupRole = secrets.DirectoryRole.fromName(stack, 'backup-role', 'directory', 'backup');
 * const creds = new secrets.DirectoryCredentials(stack, 'backup-creds', { role: backupRole });
 */
export class DirectoryCredentials extends SecretsEngineCredentials {
  constructor(scope: Construct, id: string, props: DirectoryCredentialsProps) {
    super(scope, id, DIRECTORY_CREDENTIALS.kind, props);
  }

  /** The service account name. */
  public get username(): string {
    return this._attrString('username');
  }

  /** Its current password (sensitive). */
  public get currentPassword(): string {
    return this._attrString('currentPassword');
  }

  /** Its password before the last rotation (sensitive; empty before the first one). */
  public get lastPassword(): string {
    return this._attrString('lastPassword');
  }


}
