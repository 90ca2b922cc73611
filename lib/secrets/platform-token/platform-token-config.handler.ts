import { HandlerContext, Observed, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { ApiError } from '../../core/http/api-error';
import { PlatformTokenClient } from './platform-token-client';
import { secretsClient, touchedFields } from '../engine-util';

const client = (ctx: HandlerContext) => new PlatformTokenClient(secretsClient(ctx), ctx.address);

async function write(ctx: HandlerContext, spec: Spec, sendToken: boolean): Promise<Written> {
  const mount = spec.mount as string;
  await client(ctx).writeConfig(mount, {
    address: spec.address as string,
    // The token is write-only: sent on create and when its value changed, never otherwise.
    ...(sendToken && spec.token !== undefined ? { token: String(spec.token) } : {}),
  });
  return { id: `${mount}/config` };
}

/** Lifecycle of `secrets.PlatformTokenConfig` (`{mount}/config`); the token is write-only. */
export const platformTokenConfigHandler: ResourceHandler = {
  kind: 'secrets.PlatformTokenConfig',
  api: 'secrets',
  replaceFields: ['mount'],

  naturalId: (spec) => `${spec.mount}/config`,
  importId(id) {
    if (!/^[^/].*\/config$/.test(id)) throw new Error(`import id "${id}" must be <mount>/config, e.g. platform/config`);
    return id;
  },

  async read(ctx, id): Promise<Observed | undefined> {
    const mount = id.replace(/\/config$/, '');
    const c = await client(ctx).readConfig(mount);
    return c ? { fields: { mount, address: c.address } } : undefined;
  },

  create: (ctx, spec) => write(ctx, spec, true),
  update: (ctx, _id, spec, changes) => write(ctx, spec, touchedFields(changes).has('token')),

  async delete(ctx, id) {
    try {
      await client(ctx).deleteConfig(id.replace(/\/config$/, ''));
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
  },
};
