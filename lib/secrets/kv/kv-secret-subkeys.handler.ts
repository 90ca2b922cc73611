import { DataSourceHandler } from '../../core/engine/handler';
import { dataSourceMetadata } from '../../core/schema';
import { KvClient } from './kv-client';
import { secretNotFound, secretsClient } from '../shared/engine-util';
import { KV_SECRET_SUBKEYS } from './kv-secret-subkeys.schema';
import { keyPath, policyPath, seg } from '../shared/policy-paths';

/** `secrets.KvSecretSubkeys`: a version's structure without values. */
export const kvSecretSubkeysHandler: DataSourceHandler = {
  ...dataSourceMetadata(KV_SECRET_SUBKEYS),
  permissions: (s) => [policyPath(`${seg(s.mount)}/subkeys/${keyPath(s.path)}`, 'read')],
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
