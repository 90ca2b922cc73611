import { HandlerContext, Observed, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { DirectoryClient } from './directory-client';
import { normalDuration } from '../../core/duration';
import { stringSet } from '../../core/string-set';
import { pathImportId, secretsClient, splitApiPath } from '../engine-util';

function client(ctx: HandlerContext): DirectoryClient {
  return new DirectoryClient(secretsClient(ctx), ctx.address);
}

async function write(ctx: HandlerContext, spec: Spec): Promise<Written> {
  await client(ctx).writeLibrarySet(spec.mount as string, spec.name as string, {
    service_account_names: spec.serviceAccountNames as string[],
    ttl: spec.ttl as string,
    max_ttl: spec.maxTtl as string,
    disable_check_in_enforcement: spec.disableCheckInEnforcement as boolean,
  });
  return { id: `${spec.mount}/library/${spec.name}` };
}

/** Lifecycle of `secrets.DirectoryLibrarySet` (`{mount}/library/<name>`). */
export const directoryLibrarySetHandler: ResourceHandler = {
  kind: 'secrets.DirectoryLibrarySet',
  api: 'secrets',
  replaceFields: ['mount', 'name'],
  destroyWarning: 'deletes the library set (refused by the service while an account is checked out): its accounts can no longer be checked out',

  naturalId: (spec) => `${spec.mount}/library/${spec.name}`,
  importId: (id) => pathImportId(id, 'library', 'directory/library/ops'),

  async read(ctx, id): Promise<Observed | undefined> {
    const { mount, name } = splitApiPath(id, 'library');
    const s = await client(ctx).readLibrarySet(mount, name);
    if (!s) return undefined;
    return {
      fields: {
        mount, name,
        serviceAccountNames: stringSet(s.service_account_names),
        ttl: normalDuration(s.ttl),
        maxTtl: normalDuration(s.max_ttl),
        disableCheckInEnforcement: s.disable_check_in_enforcement,
      },
    };
  },

  create: (ctx, spec) => write(ctx, spec),
  update: (ctx, _id, spec) => write(ctx, spec),

  async delete(ctx, id) {
    const { mount, name } = splitApiPath(id, 'library');
    await client(ctx).deleteLibrarySet(mount, name);
  },
};
