import { HandlerContext, Observed, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { fromWire, resourceMetadata, toWire } from '../../core/schema';
import { TotpClient, TotpGenerateInput, TotpImportInput } from './totp-client';
import { pathImportId, secretsClient, splitPathId } from '../shared/engine-util';
import { TOTP_KEY } from './totp-key.schema';
import { policyPath, seg } from '../shared/policy-paths';

/** Writes the key (the engine replaces a key written again). A generated, exported key answers its URL and QR code. */
async function write(ctx: HandlerContext, spec: Spec): Promise<Written> {
  const totp = new TotpClient(secretsClient(ctx), ctx.address);
  const mount = spec.mount as string;
  const name = spec.name as string;
  const body = toWire(TOTP_KEY, TOTP_KEY.fields, spec);
  const id = `${mount}/keys/${name}`;
  if (!spec.generate) {
    await totp.importKey(mount, name, body as unknown as TotpImportInput);
    return { id };
  }
  const g = await totp.generateKey(mount, name, body as unknown as TotpGenerateInput);
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
  ...resourceMetadata(TOTP_KEY),
  permissions: (s) => [policyPath(`${seg(s.mount)}/keys/${seg(s.name, 'name')}`, 'read', 'update', 'delete')],
  destroyWarning: 'deletes the TOTP key: devices enrolled with it (authenticator apps) stop producing valid codes and need the new key',
  recreateWarning: 'creates a new TOTP key in place of the one deleted outside converge: devices enrolled with the old key (authenticator apps) ' +
    'no longer produce valid codes and need the new key',

  naturalId: (spec) => `${spec.mount}/keys/${spec.name}`,
  importId: (id) => pathImportId(id, 'keys', 'totp/keys/app'),

  async read(ctx, id): Promise<Observed | undefined> {
    const at = splitPathId(id, 'keys')!;
    const k = await new TotpClient(secretsClient(ctx), ctx.address).readKey(at.mount, at.name);
    if (!k) return undefined;
    return { fields: { mount: at.mount, name: at.name, ...fromWire(TOTP_KEY, TOTP_KEY.fields, k as unknown as Record<string, unknown>) } };
  },

  create: (ctx, spec) => write(ctx, spec),
  // Every field replaces the key; an update only happens when the engine is asked to rewrite it.
  update: (ctx, _id, spec) => write(ctx, spec),

  async delete(ctx, id) {
    const at = splitPathId(id, 'keys')!;
    await new TotpClient(secretsClient(ctx), ctx.address).deleteKey(at.mount, at.name);
  },
};
