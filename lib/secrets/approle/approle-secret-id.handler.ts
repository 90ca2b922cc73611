import { DataSourceHandler, HandlerContext } from '../../core/engine/handler';
import { dataSourceMetadata } from '../../core/schema';
import { encodePath } from '../../core/http/http-client';
import { secretsClient } from '../shared/engine-util';
import { issuedLease, leaseOutputs } from '../shared/lease';
import { AppRoleClient } from './approle-client';
import { APPROLE_SECRET_ID } from './approle-secret-id.schema';
import { policyPath, seg } from '../shared/policy-paths';

function approle(ctx: HandlerContext): AppRoleClient {
  return new AppRoleClient(secretsClient(ctx), ctx.address);
}

const kept = (outputs: Record<string, unknown>) =>
  (typeof outputs.secretIdAccessor === 'string' && outputs.secretIdAccessor !== '' && typeof outputs.rolePath === 'string'
    ? { accessor: outputs.secretIdAccessor, rolePath: outputs.rolePath } : undefined);

const EFFECT = 'the secret id no longer logs in';

/**
 * `secrets.AppRoleSecretId`: a new secret id per read, so issued by apply and kept in state while
 * more than a third of its TTL is left (for good when it has none); the plan looks its accessor up
 * and issues a new one when it was destroyed outside converge; destroy and a replacement destroy it.
 */
export const appRoleSecretIdHandler: DataSourceHandler = {
  ...dataSourceMetadata(APPROLE_SECRET_ID),
  // Issued by a POST; a plan looks the kept one up by accessor, destroy destroys it (both POSTs).
  permissions: (s) => [
    policyPath(`auth/${seg(s.mount)}/role/${seg(s.role)}/secret-id`, 'update'),
    policyPath(`auth/${seg(s.mount)}/role/${seg(s.role)}/secret-id-accessor/lookup`, 'update'),
    policyPath(`auth/${seg(s.mount)}/role/${seg(s.role)}/secret-id-accessor/destroy`, 'update'),
  ],
  async read(ctx, spec) {
    const mount = spec.mount as string;
    const role = spec.role as string;
    const s = await approle(ctx).issueSecretId(mount, role);
    return {
      secretId: s.secret_id, secretIdAccessor: s.secret_id_accessor, rolePath: `auth/${encodePath(mount)}/role/${encodePath(role)}`,
      ...leaseOutputs({ lease_id: '', lease_duration: s.secret_id_ttl, renewable: false }),
    };
  },
  leaseOf: issuedLease,
  async leaseAlive(ctx, outputs) {
    const k = kept(outputs);
    return k ? approle(ctx).secretIdAlive(k.rolePath, k.accessor) : true;
  },
  async release(ctx, outputs) {
    const k = kept(outputs);
    // Looked up first: the service answers a destroy of one already gone with a 500.
    if (!k || !(await approle(ctx).secretIdAlive(k.rolePath, k.accessor))) return undefined;
    await approle(ctx).destroySecretId(k.rolePath, k.accessor);
    return `destroyed secret id ${k.accessor}: ${EFFECT}`;
  },
  releaseNote: (outputs) => {
    const k = kept(outputs);
    return k ? `destroys secret id ${k.accessor}: ${EFFECT}` : undefined;
  },
};
