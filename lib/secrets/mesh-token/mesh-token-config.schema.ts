import { KindSchema } from '../../core/schema';
import { mountField } from '../shared/engine-fields';

/** Schemes the service speaks to the mesh with. */
export const MESH_SCHEMES = ['http', 'https'] as const;

/**
 * `secrets.MeshTokenConfig`: the body of `POST {mount}/config/access`. The service answers only the
 * address and scheme: the token, certificates and key are compared with what the last apply sent.
 */
export const MESH_TOKEN_CONFIG: KindSchema = {
  kind: 'secrets.MeshTokenConfig',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    mount: mountField('mesh'),
    address: { type: 'string', required: true, pattern: /^[^\s/:]+:\d+$/, patternRule: 'must be host:port' },
    scheme: { type: 'string', oneOf: MESH_SCHEMES, default: 'http' },
    token: { type: 'secret', writeOnly: true },
    caCert: { type: 'string', default: '', writeOnly: true },
    clientCert: { type: 'string', default: '', writeOnly: true },
    clientKey: { type: 'secret', writeOnly: true },
  },
};
