import { Observed, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { TotpClient } from './totp-client';
import { pathImportId, secretsClient, splitPathId } from '../engine-util';

const FIELDS = ['mount', 'name', 'generate', 'issuer', 'accountName', 'algorithm', 'digits', 'period', 'skew', 'keySize',
  'exported', 'qrSize', 'key', 'url'];

async function write(ctx: Parameters<ResourceHandler['create']>[0], spec: Spec): Promise<Written> {
  const totp = new TotpClient(secretsClient(ctx), ctx.address);
  const mount = spec.mount as string;
  const name = spec.name as string;
  const common = {
    ...(spec.url === undefined ? {
      issuer: spec.issuer as string, account_name: spec.accountName as string, algorithm: spec.algorithm as 'SHA1',
      digits: spec.digits as number, period: spec.period as number,
    } : {}),
    skew: spec.skew as number,
  };
  const id = `${mount}/keys/${name}`;
  if (!spec.generate) {
    await totp.importKey(mount, name, { ...common, ...(spec.key !== undefined ? { key: String(spec.key) } : { url: String(spec.url) }) });
    return { id };
  }
  const g = await totp.generateKey(mount, name, {
    ...common, issuer: spec.issuer as string, account_name: spec.accountName as string,
    key_size: spec.keySize as number, exported: spec.exported as boolean, qr_size: spec.qrSize as number,
  });
  const sensitiveOutputs: Record<string, unknown> = {};
  if (g?.url) sensitiveOutputs.url = g.url;
  if (g?.barcode) sensitiveOutputs.barcode = g.barcode;
  return { id, sensitiveOutputs };
}

/**
 * Lifecycle of `secrets.TotpKey`. The engine cannot change a key, so every field replaces it.
 * The read answers issuer, account, algorithm, digits and period (drift of those is detected);
 * the other fields (and an imported key or URL, write-only) are compared with the last apply.
 */
export const totpKeyHandler: ResourceHandler = {
  kind: 'secrets.TotpKey',
  api: 'secrets',
  replaceFields: FIELDS,
  destroyWarning: 'deletes the TOTP key: devices enrolled with it (authenticator apps) stop producing valid codes and need the new key',

  naturalId: (spec) => `${spec.mount}/keys/${spec.name}`,
  importId: (id) => pathImportId(id, 'keys', 'totp/keys/app'),

  async read(ctx, id): Promise<Observed | undefined> {
    const at = splitPathId(id, 'keys')!;
    const k = await new TotpClient(secretsClient(ctx), ctx.address).readKey(at.mount, at.name);
    if (!k) return undefined;
    return {
      fields: {
        mount: at.mount, name: at.name, issuer: k.issuer, accountName: k.account_name, algorithm: k.algorithm,
        digits: k.digits, period: k.period,
      },
    };
  },

  create: (ctx, spec) => write(ctx, spec),
  // Every field replaces the key; an update only happens when the engine is asked to rewrite it.
  update: (ctx, _id, spec) => write(ctx, spec),

  async delete(ctx, id) {
    const at = splitPathId(id, 'keys')!;
    await new TotpClient(secretsClient(ctx), ctx.address).deleteKey(at.mount, at.name);
  },
};
