import { DataSourceHandler } from '../../core/engine/handler';
import { KvClient } from './kv-client';
import { secretNotFound, secretsClient } from '../engine-util';

/** `secrets.KvSecretSubkeys`: a version's structure without values. */
export const kvSecretSubkeysHandler: DataSourceHandler = {
  kind: 'secrets.KvSecretSubkeys',
  api: 'secrets',
  async read(ctx, spec) {
    const mount = spec.mount as string;
    const path = spec.path as string;
    const s = await new KvClient(secretsClient(ctx), ctx.address).subkeys(mount, path, {
      version: (spec.version as number) || undefined, depth: (spec.depth as number) || undefined,
    });
    if (!s || s.subkeys === null) {
      throw secretNotFound(`${mount}/${path} ${!s ? 'does not exist' : 'is deleted or destroyed'}`, 'GET', `/v1/${mount}/subkeys/${path}`, ctx.address);
    }
    return { subkeys: s.subkeys, keys: Object.keys(s.subkeys).sort(), version: s.metadata.version };
  },
};
