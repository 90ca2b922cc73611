import { HandlerContext, Observed, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { ApiError } from '../../core/http/api-error';
import { fromWire, renderSpec, resourceMetadata, toWire } from '../../core/schema';
import { KvClient, KvConfigData } from './kv-client';
import { SecretsClient } from '../client/secrets-client';
import { KV_ENGINE_CONFIG } from './kv-engine-config.schema';
import { policyPath, seg } from '../shared/policy-paths';

function kv(ctx: HandlerContext): KvClient {
  return new KvClient(new SecretsClient(ctx.http), ctx.address);
}

async function write(ctx: HandlerContext, spec: Spec): Promise<Written> {
  const mount = spec.mount as string;
  await kv(ctx).writeConfig(mount, toWire(KV_ENGINE_CONFIG, KV_ENGINE_CONFIG.fields, spec) as unknown as KvConfigData);
  return { id: mount };
}

/** Lifecycle of `secrets.KvEngineConfig`: a KV engine's `{mount}/config`; deletion resets the defaults. */
export const kvEngineConfigHandler: ResourceHandler = {
  ...resourceMetadata(KV_ENGINE_CONFIG),
  // Destroy writes the defaults back: config has no existence check, so every write is an update.
  permissions: (s) => [policyPath(`${seg(s.mount)}/config`, 'read', 'update')],

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
    return { fields: { mount: id, ...fromWire(KV_ENGINE_CONFIG, KV_ENGINE_CONFIG.fields, c as unknown as Record<string, unknown>) } };
  },

  create: (ctx, spec) => write(ctx, spec),
  update: (ctx, _id, spec) => write(ctx, spec),

  async delete(ctx, id) {
    try {
      await kv(ctx).writeConfig(id, toWire(KV_ENGINE_CONFIG, KV_ENGINE_CONFIG.fields, renderSpec(KV_ENGINE_CONFIG.fields, {})) as unknown as KvConfigData);
    } catch (e) {
      // The mount is gone: so is its configuration.
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
  },
};
