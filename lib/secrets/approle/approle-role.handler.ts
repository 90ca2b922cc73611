import { HandlerContext, ResourceHandler, Written } from '../../core/engine/handler';
import { secretsClient, splitApiPath } from '../shared/engine-util';
import { pathObjectHandler } from '../shared/path-object-handler';
import { AppRoleClient } from './approle-client';
import { APPROLE_ROLE } from './approle-role.schema';
import { policyPath, seg } from '../shared/policy-paths';

function approle(ctx: HandlerContext): AppRoleClient {
  return new AppRoleClient(secretsClient(ctx), ctx.address);
}

const base = pathObjectHandler(APPROLE_ROLE, 'role', {
  importExample: 'approle/role/ci',
  destroyWarning: 'its role id and every secret id it issued stop logging in',
  // A role's path has an existence check (its first write is a `create`); its role id is read after its create.
  permissions: (s) => [
    policyPath(`auth/${seg(s.mount)}/role/${seg(s.name)}`, 'create', 'read', 'update', 'delete'),
    policyPath(`auth/${seg(s.mount)}/role/${seg(s.name)}/role-id`, 'read'),
  ],
  calls: {
    async read(ctx, mount, name) {
      const role = await approle(ctx).readRole(mount, name);
      if (!role) return undefined;
      return { ...role, role_id: await approle(ctx).readRoleId(mount, name) };
    },
    write: (ctx, mount, name, body) => approle(ctx).writeRole(mount, name, body),
    remove: (ctx, mount, name) => approle(ctx).deleteRole(mount, name),
    outputs: (body) => ({ roleId: body.role_id ?? '' }),
  },
});

/** The written role with its role id, which the service assigns. */
async function withRoleId(ctx: HandlerContext, w: Written): Promise<Written> {
  const { mount, name } = splitApiPath(w.id, 'role');
  return { ...w, outputs: { roleId: (await approle(ctx).readRoleId(mount, name)) ?? '' } };
}

/** Lifecycle of `secrets.AppRoleRole`: `auth/<mount>/role/<name>`; id `<mount>/role/<name>`. */
export const appRoleRoleHandler: ResourceHandler = {
  ...base,
  create: async (ctx, spec) => withRoleId(ctx, await base.create(ctx, spec)),
  // The base update: a role write sends no role_id and the service keeps the role's, so nothing is read after it (the
  // applier keeps the role id the plan read, or the recorded one, for an output the write leaves out).
};
