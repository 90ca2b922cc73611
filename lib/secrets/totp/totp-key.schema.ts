import { FieldSchema, KindSchema } from '../../core/schema';
import { mountField } from '../shared/engine-fields';

/** Hash algorithms of TOTP codes (the spec's `algorithm`). */
export const TOTP_ALGORITHMS = ['SHA1', 'SHA256', 'SHA512'] as const;

/** The name of a key: one path segment. */
export const TOTP_KEY_NAME: FieldSchema = {
  type: 'string', required: true, local: true, replace: true, identity: true, pattern: /^[^/]+$/, patternRule: 'must be a non-empty name without "/"',
};

type Props = Record<string, unknown>;
/** Whether the service generates the key: unless a key or URL is imported. */
const generated = (p: Props): boolean => (p.generate as boolean | undefined) ?? (p.key === undefined && p.url === undefined);
/** A default that applies only when the key is not imported from a URL (the URL sets the field). */
const unlessUrl = (v: unknown) => (p: Props) => (p.url === undefined ? v : undefined);
/** A default that applies only to a generated key. */
const ifGenerated = (v: unknown) => (p: Props) => (generated(p) ? v : undefined);

/**
 * `secrets.TotpKey`: the spec's create body of `/totp/keys/<name>`. The engine cannot change a key,
 * so every field replaces it. The read answers issuer, account, algorithm, digits and period; the
 * other fields are compared with the last apply (write-only), the imported key and URL as HMACs.
 */
export const TOTP_KEY: KindSchema = {
  kind: 'secrets.TotpKey',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    mount: mountField('totp'),
    name: TOTP_KEY_NAME,
    generate: { type: 'boolean', default: generated, writeOnly: true, replace: true },
    url: { type: 'secret', writeOnly: true, replace: true },
    issuer: { type: 'string', default: unlessUrl(''), replace: true },
    accountName: { type: 'string', default: unlessUrl(''), replace: true },
    algorithm: { type: 'string', oneOf: TOTP_ALGORITHMS, default: unlessUrl('SHA1'), replace: true },
    // 6 or 8: the construct checks it (a set of numbers, which a schema range does not say).
    digits: { type: 'integer', default: unlessUrl(6), replace: true },
    period: { type: 'integer', min: 1, default: unlessUrl(30), replace: true },
    key: { type: 'secret', writeOnly: true, replace: true },
    skew: { type: 'integer', min: 0, max: 1, default: 1, writeOnly: true, replace: true },
    keySize: { type: 'integer', min: 1, default: ifGenerated(20), writeOnly: true, replace: true },
    exported: { type: 'boolean', default: ifGenerated(true), writeOnly: true, replace: true },
    qrSize: { type: 'integer', min: 0, default: ifGenerated(200), writeOnly: true, replace: true },
  },
  outputs: {
    url: { type: 'string', sensitive: true },
    barcode: { type: 'string', sensitive: true },
  },
};
