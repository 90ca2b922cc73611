import { DataSourceHandler } from '../../core/engine/handler';
import { dataSourceMetadata } from '../../core/schema';
import { KvClient } from './kv-client';
import { secretNotFound, secretsClient } from '../shared/engine-util';
import { KV_SECRET_DATA } from './kv-secret-data.schema';
import { keyPath, policyPath, seg } from '../shared/policy-paths';

/** `secrets.KvSecretData`: a version's data (sensitive), version, created time and custom metadata. */
export const kvSecretDataHandler: DataSourceHandler = {
  ...dataSourceMetadata(KV_SECRET_DATA),
  permissions: (s) => [policyPath(`${seg(s.mount)}/data/${keyPath(s.path)}`, 'read')],
  async read(ctx, spec) {
    const mount = spec.mount as string;
    const path = spec.path as string;
    const v = await new KvClient(secretsClient(ctx), ctx.address).read(mount, path, (spec.version as number) || undefined);
    if (!v || v.data === null) {
      const why = !v ? 'does not exist' : v.metadata.destroyed ? 'is destroyed' : 'is deleted';
      throw secretNotFound(`${mount}/${path}${spec.version ? ` version ${spec.version}` : ''} ${why}`, 'GET', `/v1/${mount}/data/${path}`, ctx.address);
    }
    return {
      data: v.data, version: v.metadata.version, createdTime: v.metadata.created_time, customMetadata: v.metadata.custom_metadata ?? {},
    };
  },
};
