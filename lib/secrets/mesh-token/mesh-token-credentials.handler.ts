import { DataSourceHandler } from '../../core/engine/handler';
import { MeshTokenClient } from './mesh-token-client';
import { credentialsHandler, secretsClient } from '../shared/engine-util';
import { issuedLease, leasedCredentials } from '../shared/lease';
import { MESH_TOKEN_CREDENTIALS } from './mesh-token-credentials.schema';
import { LEASES, policyPath, seg } from '../shared/policy-paths';

/**
 * `secrets.MeshTokenCredentials`: a new mesh token of a mesh-token role under a lease, kept from state
 * while more than a third of its lease is left (the mesh revokes it when the lease ends).
 */
export const meshTokenCredentialsHandler: DataSourceHandler = {
  ...credentialsHandler(MESH_TOKEN_CREDENTIALS, (ctx, mount, role) => new MeshTokenClient(secretsClient(ctx), ctx.address).creds(mount, role), issuedLease),
  ...leasedCredentials('its mesh token is revoked'),
  permissions: (s) => [policyPath(`${seg(s.mount)}/creds/${seg(s.role, 'role')}`, 'read'), ...LEASES],
};
