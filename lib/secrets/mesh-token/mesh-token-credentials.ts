import { Construct } from 'constructs';
import { LeasedSecretsEngineCredentials } from '../shared/engine-role';
import { SecretsProvider } from '../provider';
import { MESH_TOKEN_CREDENTIALS } from './mesh-token-credentials.schema';
import { IMeshTokenRole } from './mesh-token-role';

/** Props of the MeshTokenCredentials data source. */
export interface MeshTokenCredentialsProps {
  /** The role whose token is made: a `MeshTokenRole` of this app, or `MeshTokenRole.fromName`. */
  readonly role: IMeshTokenRole;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * A mesh token of a mesh-token role (`GET {mount}/creds/<role>`), made at plan time, or during the apply
 * that creates or changes the role, under the role's lease (the mesh revokes it when the lease ends). The
 * plans after an apply keep it in state while more than a third of its lease is left, then make a new one.
 * The token is sensitive: kept encrypted in state, masked in plans and output, and a secret wherever it
 * flows (pass `token` to another construct's prop).
 *
 * @example
 * const role = new secrets.MeshTokenRole(stack, 'web-role', { name: 'web', serviceIdentities: ['web:dc1'], ttl: '24h' });
 * const creds = new secrets.MeshTokenCredentials(stack, 'web-token', { role });
 * // creds.token feeds another construct's prop, as a secret.
 */
export class MeshTokenCredentials extends LeasedSecretsEngineCredentials {
  constructor(scope: Construct, id: string, props: MeshTokenCredentialsProps) {
    super(scope, id, MESH_TOKEN_CREDENTIALS.kind, props);
  }

  /** The mesh token (its secret id; sensitive). */
  public get token(): string {
    return this._attrString('token');
  }

  /** The token's accessor: names it (to look it up or revoke it) without granting anything. */
  public get accessor(): string {
    return this._attrString('accessor');
  }

  /** The token's namespace. */
  public get meshNamespace(): string {
    return this._attrString('meshNamespace');
  }

  /** The token's admin partition. */
  public get partition(): string {
    return this._attrString('partition');
  }
}
