import { DataSourceHandler } from '../../core/engine/handler';
import { dataSourceMetadata, fromWire } from '../../core/schema';
import { TotpClient } from './totp-client';
import { secretNotFound, secretsClient } from '../shared/engine-util';
import { TOTP_KEY_INFO } from './totp-key-info.schema';
import { TOTP_KEY } from './totp-key.schema';
import { policyPath, seg } from '../shared/policy-paths';

/** `secrets.TotpKeyInfo`: a TOTP key's public fields. */
export const totpKeyInfoHandler: DataSourceHandler = {
  ...dataSourceMetadata(TOTP_KEY_INFO),
  permissions: (s) => [policyPath(`${seg(s.mount)}/keys/${seg(s.name, 'name')}`, 'read')],
  async read(ctx, spec) {
    const mount = spec.mount as string;
    const name = spec.name as string;
    const k = await new TotpClient(secretsClient(ctx), ctx.address).readKey(mount, name);
    if (!k) throw secretNotFound(`TOTP key ${mount}/keys/${name} does not exist`, 'GET', `/v1/${mount}/keys/${name}`, ctx.address);
    // The key's fields the read answers (the others are write-only): the outputs.
    return fromWire(TOTP_KEY, TOTP_KEY.fields, k as unknown as Record<string, unknown>);
  },
};
