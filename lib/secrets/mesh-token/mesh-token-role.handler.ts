import { HandlerContext, ResourceHandler, Spec } from '../../core/engine/handler';
import { MeshTokenClient } from './mesh-token-client';
import { durationSeconds } from '../../core/constructs/validation';
import { secretsClient } from '../shared/engine-util';
import { pathObjectHandler } from '../shared/path-object-handler';
import { policyPath, READ_AT_ID, seg } from '../shared/policy-paths';
import { MESH_TOKEN_ROLE } from './mesh-token-role.schema';

const client = (ctx: HandlerContext) => new MeshTokenClient(secretsClient(ctx), ctx.address);

/**
 * What the service answers, as the desired mesh version manages it: only the fields of that version
 * (the construct renders those); an unset `lease` (`''`) reads 0 from the service; `meshVersion` is the
 * construct's own (it picks the fields) and never differs.
 */
function observe(fields: Spec, raw: Record<string, unknown>, desired?: Spec): Spec {
  const out = { ...fields };
  if (typeof raw.lease === 'string' && durationSeconds(raw.lease) === 0 && (desired?.lease ?? '') === '') out.lease = '';
  if (!desired) return out;
  for (const k of Object.keys(out)) if (!(k in desired) && k !== 'mount' && k !== 'name') delete out[k];
  if (desired.meshVersion !== undefined) out.meshVersion = desired.meshVersion;
  return out;
}

/** Lifecycle of `secrets.MeshTokenRole` (`{mount}/roles/<name>`). */
export const meshTokenRoleHandler: ResourceHandler = pathObjectHandler(MESH_TOKEN_ROLE, 'roles', {
  importExample: 'mesh/roles/web',
  observe,
  permissions: (s) => [policyPath(`${seg(s.mount)}/roles/${seg(s.name, 'name')}`, 'read', 'update', 'delete')],
  lookupPermissions: READ_AT_ID,
  calls: {
    read: (ctx, mount, name) => client(ctx).readRole(mount, name),
    write: (ctx, mount, name, body) => client(ctx).writeRole(mount, name, body),
    remove: (ctx, mount, name) => client(ctx).deleteRole(mount, name),
  },
});
