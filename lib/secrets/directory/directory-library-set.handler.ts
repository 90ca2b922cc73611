import { HandlerContext, ResourceHandler } from '../../core/engine/handler';
import { secretsClient } from '../shared/engine-util';
import { pathObjectHandler } from '../shared/path-object-handler';
import { DirectoryClient } from './directory-client';
import { DIRECTORY_LIBRARY_SET } from './directory-library-set.schema';
import { policyPath, READ_AT_ID, seg } from '../shared/policy-paths';

function client(ctx: HandlerContext): DirectoryClient {
  return new DirectoryClient(secretsClient(ctx), ctx.address);
}

/** Lifecycle of `secrets.DirectoryLibrarySet` (`{mount}/library/<name>`). */
export const directoryLibrarySetHandler: ResourceHandler = pathObjectHandler(DIRECTORY_LIBRARY_SET, 'library', {
  importExample: 'directory/library/ops',
  destroyWarning: 'deletes the library set (refused by the service while an account is checked out): its accounts can no longer be checked out',
  permissions: (s) => [policyPath(`${seg(s.mount)}/library/${seg(s.name, 'name')}`, 'read', 'update', 'delete')],
  lookupPermissions: READ_AT_ID,
  calls: {
    read: (ctx, mount, name) => client(ctx).readLibrarySet(mount, name),
    write: (ctx, mount, name, body) => client(ctx).writeLibrarySet(mount, name, body),
    remove: (ctx, mount, name) => client(ctx).deleteLibrarySet(mount, name),
  },
});
