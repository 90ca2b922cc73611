import { HandlerContext, Observed, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { ApiError } from '../../core/http/api-error';
import { KvClient } from './kv-client';
import { SecretsClient } from '../client/secrets-client';
import { normalDuration } from '../../core/duration';

function kv(ctx: HandlerContext): KvClient {
  return new KvClient(new SecretsClient(ctx.http), ctx.address);
}

async function write(ctx: HandlerContext, spec: Spec): Promise<Written> {
  const mount = spec.mount as string;
  await kv(ctx).writeConfig(mount, {
    max_versions: spec.maxVersions as number,
    cas_required: spec.casRequired as boolean,
    delete_version_after: spec.deleteVersionAfter as string,
  });
  return { id: mount };
}

/** Lifecycle of `secrets.KvEngineConfig`: a KV engine's `{mount}/config`; deletion resets the defaults. */
export const kvEngineConfigHandler: ResourceHandler = {
  kind: 'secrets.KvEngineConfig',
  api: 'secrets',
  replaceFields: ['mount'],

  // A mount's configuration always exists (its defaults): a construct takes it over; delete resets it.
  alwaysExists: true,

  naturalId(spec) {
    return spec.mount as string;
  },

  importId(id) {
    if (!id || id.startsWith('/') || id.endsWith('/')) throw new Error(`import id "${id}" must be a mount path, e.g. secret`);
    return id;
  },

  async read(ctx, id): Promise<Observed | undefined> {
    const c = await kv(ctx).readConfig(id);
    if (!c) return undefined;
    return {
      fields: {
        mount: id,
        maxVersions: c.max_versions,
        casRequired: c.cas_required,
        deleteVersionAfter: normalDuration(c.delete_version_after),
      },
    };
  },

  create: (ctx, spec) => write(ctx, spec),
  update: (ctx, _id, spec) => write(ctx, spec),

  async delete(ctx, id) {
    try {
      await kv(ctx).writeConfig(id, { max_versions: 0, cas_required: false, delete_version_after: '0s' });
    } catch (e) {
      // The mount is gone: so is its configuration.
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
  },
};
