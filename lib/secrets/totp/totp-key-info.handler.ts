import { DataSourceHandler } from '../../core/engine/handler';
import { TotpClient } from './totp-client';
import { secretNotFound, secretsClient } from '../engine-util';

/** `secrets.TotpKeyInfo`: a TOTP key's public fields. */
export const totpKeyInfoHandler: DataSourceHandler = {
  kind: 'secrets.TotpKeyInfo',
  api: 'secrets',
  async read(ctx, spec) {
    const mount = spec.mount as string;
    const name = spec.name as string;
    const k = await new TotpClient(secretsClient(ctx), ctx.address).readKey(mount, name);
    if (!k) throw secretNotFound(`TOTP key ${mount}/keys/${name} does not exist`, 'GET', `/v1/${mount}/keys/${name}`, ctx.address);
    return { issuer: k.issuer, accountName: k.account_name, algorithm: k.algorithm, digits: k.digits, period: k.period };
  },
};
