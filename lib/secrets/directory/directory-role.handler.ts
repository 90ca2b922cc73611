import { HandlerContext, Observed, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { DirectoryClient } from './directory-client';
import { normalDuration } from '../../core/duration';
import { pathImportId, secretsClient, splitApiPath } from '../engine-util';

function client(ctx: HandlerContext): DirectoryClient {
  return new DirectoryClient(secretsClient(ctx), ctx.address);
}

async function write(ctx: HandlerContext, spec: Spec): Promise<Written> {
  await client(ctx).writeRole(spec.mount as string, spec.name as string, {
    service_account_name: spec.serviceAccountName as string,
    ...(spec.ttl !== undefined ? { ttl: spec.ttl as string } : {}),
  });
  return { id: `${spec.mount}/roles/${spec.name}` };
}

/** Lifecycle of `secrets.DirectoryRole` (`{mount}/roles/<name>`). */
export const directoryRoleHandler: ResourceHandler = {
  kind: 'secrets.DirectoryRole',
  api: 'secrets',
  replaceFields: ['mount', 'name'],
  destroyWarning: 'deletes the role: the service stops managing the account\'s password (the account stays in the directory with its last password)',

  naturalId: (spec) => `${spec.mount}/roles/${spec.name}`,
  importId: (id) => pathImportId(id, 'roles', 'directory/roles/app'),

  async read(ctx, id): Promise<Observed | undefined> {
    const { mount, name } = splitApiPath(id, 'roles');
    const r = await client(ctx).readRole(mount, name);
    if (!r) return undefined;
    return {
      fields: {
        mount, name, serviceAccountName: r.service_account_name,
        // A spec without a ttl (the role follows the configuration's) never compares it.
        ttl: normalDuration(r.ttl),
      },
      outputs: { passwordLastSet: r.password_last_set ?? '', lastServiceRotation: r.last_service_rotation ?? '' },
    };
  },

  create: (ctx, spec) => write(ctx, spec),
  update: (ctx, _id, spec) => write(ctx, spec),

  async delete(ctx, id) {
    const { mount, name } = splitApiPath(id, 'roles');
    await client(ctx).deleteRole(mount, name);
  },
};
