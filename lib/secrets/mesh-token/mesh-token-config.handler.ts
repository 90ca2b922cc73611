import { HandlerContext, Observed, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { MeshTokenClient } from './mesh-token-client';
import { secretsClient } from '../engine-util';

const client = (ctx: HandlerContext) => new MeshTokenClient(secretsClient(ctx), ctx.address);

/**
 * Every write sends the whole configuration, token included: a write without a token makes
 * the service bootstrap the mesh's ACL system, which a configured mesh refuses.
 */
async function write(ctx: HandlerContext, spec: Spec): Promise<Written> {
  const mount = spec.mount as string;
  await client(ctx).writeAccess(mount, {
    address: spec.address as string, scheme: spec.scheme as string,
    ...(spec.token !== undefined ? { token: String(spec.token) } : {}),
    ca_cert: spec.caCert as string, client_cert: spec.clientCert as string,
    ...(spec.clientKey !== undefined ? { client_key: String(spec.clientKey) } : {}),
  });
  return { id: `${mount}/config/access` };
}

/** Lifecycle of `secrets.MeshTokenConfig` (`{mount}/config/access`); token and client key are write-only. */
export const meshTokenConfigHandler: ResourceHandler = {
  kind: 'secrets.MeshTokenConfig',
  api: 'secrets',
  replaceFields: ['mount'],

  naturalId: (spec) => `${spec.mount}/config/access`,
  importId(id) {
    if (!/^[^/].*\/config\/access$/.test(id)) throw new Error(`import id "${id}" must be <mount>/config/access, e.g. mesh/config/access`);
    return id;
  },

  async read(ctx, id): Promise<Observed | undefined> {
    const mount = id.replace(/\/config\/access$/, '');
    const a = await client(ctx).readAccess(mount);
    return a ? { fields: { mount, address: a.address, scheme: a.scheme } } : undefined;
  },

  create: (ctx, spec) => write(ctx, spec),
  update: (ctx, _id, spec) => write(ctx, spec),

  // The service has no delete for the access configuration: it goes with the mount.
  async delete() { /* nothing to call */ },
};
