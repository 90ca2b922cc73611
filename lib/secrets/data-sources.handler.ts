import { DataSourceHandler } from '../core/engine/handler';
import { ApiError } from '../core/http/api-error';
import { KvClient } from './client/kv-client';
import { TotpClient } from './client/totp-client';
import { secretsOf } from './engine-handler-util';

function notFound(what: string, method: string, path: string, address: string): ApiError {
  return new ApiError(404, [what], method, path, 'secrets', address, 'SECRETS_TOKEN');
}

/** `secrets.KvSecretData`: a version's data (sensitive), version, created time and custom metadata. */
export const kvSecretDataHandler: DataSourceHandler = {
  kind: 'secrets.KvSecretData',
  api: 'secrets',
  sensitiveOutputs: ['data'],
  async read(ctx, spec) {
    const mount = spec.mount as string;
    const path = spec.path as string;
    const v = await new KvClient(secretsOf(ctx), ctx.address).read(mount, path, (spec.version as number) || undefined);
    if (!v || v.data === null) {
      const why = !v ? 'does not exist' : v.metadata.destroyed ? 'is destroyed' : 'is deleted';
      throw notFound(`${mount}/${path}${spec.version ? ` version ${spec.version}` : ''} ${why}`, 'GET', `/v1/${mount}/data/${path}`, ctx.address);
    }
    return {
      data: v.data, version: v.metadata.version, createdTime: v.metadata.created_time, customMetadata: v.metadata.custom_metadata ?? {},
    };
  },
};

/** `secrets.KvSecretSubkeys`: a version's structure without values. */
export const kvSecretSubkeysHandler: DataSourceHandler = {
  kind: 'secrets.KvSecretSubkeys',
  api: 'secrets',
  async read(ctx, spec) {
    const mount = spec.mount as string;
    const path = spec.path as string;
    const s = await new KvClient(secretsOf(ctx), ctx.address).subkeys(mount, path, {
      version: (spec.version as number) || undefined, depth: (spec.depth as number) || undefined,
    });
    if (!s || s.subkeys === null) {
      throw notFound(`${mount}/${path} ${!s ? 'does not exist' : 'is deleted or destroyed'}`, 'GET', `/v1/${mount}/subkeys/${path}`, ctx.address);
    }
    return { subkeys: s.subkeys, keys: Object.keys(s.subkeys).sort(), version: s.metadata.version };
  },
};

/** `secrets.TotpKeyInfo`: a TOTP key's public fields. */
export const totpKeyInfoHandler: DataSourceHandler = {
  kind: 'secrets.TotpKeyInfo',
  api: 'secrets',
  async read(ctx, spec) {
    const mount = spec.mount as string;
    const name = spec.name as string;
    const k = await new TotpClient(secretsOf(ctx), ctx.address).readKey(mount, name);
    if (!k) throw notFound(`TOTP key ${mount}/keys/${name} does not exist`, 'GET', `/v1/${mount}/keys/${name}`, ctx.address);
    return { issuer: k.issuer, accountName: k.account_name, algorithm: k.algorithm, digits: k.digits, period: k.period };
  },
};
