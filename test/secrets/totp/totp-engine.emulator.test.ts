import jsQR from 'jsqr';
import { authenticator } from 'otplib';
import { ServedApi } from '../../../lib/core/emulator-kit/server';
import { base32Decode, base32Encode, totpAt } from '../../../lib/secrets/totp/otp.emulator';
import { FakeClock } from '../../support/fake-clock';
import { call, startSecrets } from '../emulator-helpers';

/** The time of the emulator's clock and of the independent implementation: both compute codes for the same moment. */
const NOW = 1_700_000_020_000;
let clock: FakeClock;
let s: ServedApi;
beforeEach(async () => {
  clock = new FakeClock(NOW);
  s = await startSecrets({ totp: 'totp', otp2: 'totp' }, clock);
});
afterEach(async () => { await s.stop(); });

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

/**
 * otplib, an independent TOTP implementation, set to a key's parameters. Its HMAC key is the
 * secret as given, as otpauth apps use it (otplib's default pads it to the hash's length, which
 * only the RFC's reference seeds need).
 */
function independent(o: { digits?: number; period?: number; algorithm?: string; window?: number } = {}) {
  return authenticator.clone({
    digits: o.digits ?? 6, step: o.period ?? 30, window: o.window ?? 0, epoch: NOW,
    algorithm: (o.algorithm ?? 'SHA1').toLowerCase() as any,
    createHmacKey: (_alg: string, secret: string, encoding: BufferEncoding) => Buffer.from(secret, encoding).toString('hex'),
  } as any);
}

/** Decodes the QR code in a base64 PNG with jsQR, an independent decoder (pixels read with pngjs, which qrcode uses). */
function decodeQr(b64: string): string | undefined {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const { PNG } = require('pngjs');
  const png = PNG.sync.read(Buffer.from(b64, 'base64'));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

function pngSize(b64: string): { width: number; height: number; signature: string } {
  const buf = Buffer.from(b64, 'base64');
  return { signature: buf.subarray(0, 8).toString('hex'), width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

describe('generated keys', () => {
  test('generate answers the otpauth URL and a PNG QR code of qr_size pixels; read answers the public fields', async () => {
    const a = await call(s, 'POST', '/v1/totp/keys/app', { body: { generate: true, issuer: 'Acme', account_name: 'ann@example.com' } });
    expect(a.status).toBe(200);
    expect(a.body.data.url).toMatch(/^otpauth:\/\/totp\/Acme:ann@example\.com\?algorithm=SHA1&digits=6&issuer=Acme&period=30&secret=[A-Z2-7]{32}$/);
    expect(pngSize(a.body.data.barcode)).toEqual({ signature: '89504e470d0a1a0a', width: 200, height: 200 });
    expect(decodeQr(a.body.data.barcode)).toBe(a.body.data.url);
    const r = await call(s, 'GET', '/v1/totp/keys/app');
    expect(r.body.data).toEqual({ account_name: 'ann@example.com', algorithm: 'SHA1', digits: 6, issuer: 'Acme', period: 30 });
  });

  test('key_size, qr_size, digits, algorithm and period (as a duration) shape the key', async () => {
    const a = await call(s, 'POST', '/v1/totp/keys/big', {
      body: { generate: true, issuer: 'My Co', account_name: 'bob', key_size: 32, qr_size: 120, digits: 8, algorithm: 'SHA512', period: '1m' },
    });
    const url = new URL(a.body.data.url);
    expect(a.body.data.url.startsWith('otpauth://totp/My%20Co:bob?algorithm=SHA512&digits=8&issuer=My%20Co&period=60&secret=')).toBe(true);
    expect(base32Decode(url.searchParams.get('secret')!)).toHaveLength(32);
    expect(pngSize(a.body.data.barcode)).toMatchObject({ width: 120, height: 120 });
  });

  test('qr_size 0 gives no barcode; exported false gives 204 and no key material', async () => {
    const a = await call(s, 'POST', '/v1/totp/keys/noqr', { body: { generate: true, issuer: 'I', account_name: 'a', qr_size: 0 } });
    expect(a.body.data.barcode).toBeUndefined();
    expect(a.body.data.url).toMatch(/^otpauth:/);
    const b = await call(s, 'POST', '/v1/totp/keys/hidden', { body: { generate: true, issuer: 'I', account_name: 'a', exported: false } });
    expect(b).toMatchObject({ status: 204, body: undefined });
    expect((await call(s, 'GET', '/v1/totp/keys/hidden')).status).toBe(200);
  });

  test('generate needs issuer and account_name and refuses key or url', async () => {
    const bad: [object, string][] = [
      [{ generate: true, account_name: 'a' }, 'the issuer value is required when generate is true'],
      [{ generate: true, issuer: 'i' }, 'the account_name value is required when generate is true'],
      [{ generate: true, issuer: 'i', account_name: 'a', key: SECRET }, 'a key should not be passed if generate is true'],
      [{ generate: true, issuer: 'i', account_name: 'a', url: 'otpauth://totp/x' }, 'a url should not be passed if generate is true'],
      [{ generate: true, issuer: 'i', account_name: 'a', key_size: 0 }, 'the key_size value must be greater than zero'],
      [{ generate: true, issuer: 'i', account_name: 'a', qr_size: -1 }, 'the qr_size value must be greater than or equal to zero'],
      [{ generate: true, issuer: 'i', account_name: 'a', skew: 2 }, 'the skew value must be 0 or 1'],
      [{ key: SECRET, digits: 7 }, 'the digits value can only be 6 or 8'],
      [{ key: SECRET, algorithm: 'MD5' }, 'the algorithm value is not valid'],
      [{ key: SECRET, period: 0 }, 'the period value must be greater than zero'],
      [{}, 'the key value is required'],
      [{ key: 'not base32!' }, 'invalid key value: illegal base32 data at input byte 3'],
      [{ key: SECRET, generate: 'maybe' }, 'error converting input for field "generate": cannot parse \'maybe\' as bool'],
    ];
    for (const [body, msg] of bad) {
      expect(await call(s, 'POST', '/v1/totp/keys/k', { body })).toMatchObject({ status: 400, body: { errors: [msg] } });
    }
    expect((await call(s, 'GET', '/v1/totp/keys/k')).status).toBe(404);
  });
});

describe('imported keys', () => {
  test('a key imports with 204; generate-only params are ignored; its codes are the independent library\'s', async () => {
    const a = await call(s, 'POST', '/v1/totp/keys/imp', { body: { key: SECRET.toLowerCase(), issuer: 'X', account_name: 'y', exported: false, qr_size: 5 } });
    expect(a.status).toBe(204);
    expect((await call(s, 'GET', '/v1/totp/keys/imp')).body.data).toEqual({ account_name: 'y', algorithm: 'SHA1', digits: 6, issuer: 'X', period: 30 });
    const code = (await call(s, 'GET', '/v1/totp/code/imp')).body.data.code;
    expect(independent({ window: 1 }).check(code, SECRET)).toBe(true);
  });

  test('a url sets issuer, account, secret, digits, algorithm and period; missing values fall back to defaults', async () => {
    const url = `otpauth://totp/Label%20Co:carol?secret=${SECRET}&issuer=Real&digits=8&algorithm=SHA256&period=45`;
    expect((await call(s, 'POST', '/v1/totp/keys/u', { body: { url, digits: 6, period: 30 } })).status).toBe(204);
    expect((await call(s, 'GET', '/v1/totp/keys/u')).body.data).toEqual({ account_name: 'carol', algorithm: 'SHA256', digits: 8, issuer: 'Real', period: 45 });
    await call(s, 'POST', '/v1/totp/keys/v', { body: { url: `otpauth://totp/Lbl:dave?secret=${SECRET}&digits=7&algorithm=MD5` } });
    expect((await call(s, 'GET', '/v1/totp/keys/v')).body.data).toEqual({ account_name: 'dave', algorithm: 'SHA1', digits: 6, issuer: 'Lbl', period: 30 });
    const bad = await call(s, 'POST', '/v1/totp/keys/w', { body: { url: `otpauth://totp/L:a?secret=${SECRET}&period=x` } });
    expect(bad).toMatchObject({ status: 400, body: { errors: ['an error occurred while parsing period value in url'] } });
  });
});

describe('codes against an independent implementation (otplib)', () => {
  const variants = [
    { algorithm: 'SHA1', digits: 6, period: 30 },
    { algorithm: 'SHA256', digits: 8, period: 30 },
    { algorithm: 'SHA512', digits: 8, period: 60 },
    { algorithm: 'SHA512', digits: 6, period: 15 },
  ];
  test.each(variants)('emulator codes are otplib\'s and otplib codes validate: %o', async (v) => {
    const secret = authenticator.generateSecret(20);
    await call(s, 'POST', '/v1/totp/keys/x', { body: { key: secret, ...v } });
    const lib = independent({ ...v, window: 1 });
    const emu = (await call(s, 'GET', '/v1/totp/code/x')).body.data.code;
    expect(emu).toHaveLength(v.digits);
    expect(lib.check(emu, secret)).toBe(true);
    const theirs = independent(v).generate(secret);
    expect(await call(s, 'POST', '/v1/totp/code/x', { body: { code: theirs } })).toMatchObject({ status: 200, body: { data: { valid: true } } });
  });

  test('a generated key\'s secret gives otplib the emulator\'s codes', async () => {
    const a = await call(s, 'POST', '/v1/totp/keys/g', { body: { generate: true, issuer: 'I', account_name: 'a', algorithm: 'SHA256', digits: 8 } });
    const secret = new URL(a.body.data.url).searchParams.get('secret')!;
    const lib = independent({ algorithm: 'SHA256', digits: 8, window: 1 });
    expect(lib.check((await call(s, 'GET', '/v1/totp/code/g')).body.data.code, secret)).toBe(true);
    expect((await call(s, 'POST', '/v1/totp/code/g', { body: { code: independent({ algorithm: 'SHA256', digits: 8 }).generate(secret) } })).body.data.valid).toBe(true);
  });

  test('RFC 6238 test vectors', () => {
    const seeds: Record<string, string> = {
      SHA1: '12345678901234567890',
      SHA256: '12345678901234567890123456789012',
      SHA512: '1234567890123456789012345678901234567890123456789012345678901234',
    };
    const key = (alg: string) => Buffer.from(seeds[alg], 'ascii');
    expect(totpAt(key('SHA1'), 59_000, 30, 8, 'SHA1')).toBe('94287082');
    expect(totpAt(key('SHA256'), 59_000, 30, 8, 'SHA256')).toBe('46119246');
    expect(totpAt(key('SHA512'), 59_000, 30, 8, 'SHA512')).toBe('90693936');
    expect(totpAt(key('SHA1'), 1111111109_000, 30, 8, 'SHA1')).toBe('07081804');
    expect(totpAt(key('SHA512'), 20000000000_000, 30, 8, 'SHA512')).toBe('47863826');
    expect(base32Decode(base32Encode(key('SHA512')))).toEqual(key('SHA512'));
  });
});

describe('validation', () => {
  test('a wrong code is valid false; a reused code is refused in its window; unknown keys are 400', async () => {
    await call(s, 'POST', '/v1/totp/keys/k', { body: { key: SECRET } });
    const now = independent().generate(SECRET);
    const wrong = String((Number(now) + 1) % 1_000_000).padStart(6, '0');
    expect(await call(s, 'POST', '/v1/totp/code/k', { body: { code: wrong } })).toMatchObject({ status: 200, body: { data: { valid: false } } });
    expect(await call(s, 'POST', '/v1/totp/code/k', { body: { code: '123' } }))
      .toMatchObject({ status: 400, body: { errors: ['invalid number of digits for the code'] } });
    expect((await call(s, 'POST', '/v1/totp/code/k', { body: { code: now } })).body.data.valid).toBe(true);
    expect(await call(s, 'POST', '/v1/totp/code/k', { body: { code: now } }))
      .toMatchObject({ status: 400, body: { errors: ['code already used; wait until the next time period'] } });
    expect(await call(s, 'POST', '/v1/totp/code/k', { body: {} })).toMatchObject({ status: 400, body: { errors: ['the code value is required'] } });
    expect(await call(s, 'GET', '/v1/totp/code/nope')).toMatchObject({ status: 400, body: { errors: ['unknown key: nope'] } });
    expect(await call(s, 'POST', '/v1/totp/code/nope', { body: { code: '123456' } })).toMatchObject({ status: 400, body: { errors: ['unknown key: nope'] } });
  });

  test('skew 1 accepts the previous period\'s code; skew 0 does not', async () => {
    const prev = independent({ period: 30 }).clone({ epoch: NOW - 30_000 }).generate(SECRET);
    await call(s, 'POST', '/v1/totp/keys/s1', { body: { key: SECRET } });
    await call(s, 'POST', '/v1/totp/keys/s0', { body: { key: SECRET, skew: 0 } });
    expect((await call(s, 'POST', '/v1/totp/code/s1', { body: { code: prev } })).body.data.valid).toBe(true);
    expect((await call(s, 'POST', '/v1/totp/code/s0', { body: { code: prev } })).body.data.valid).toBe(false);
  });
});

describe('key lifecycle', () => {
  test('list names, delete (also when absent), mounts keep separate keys, methods', async () => {
    expect(await call(s, 'GET', '/v1/totp/keys?list=true')).toMatchObject({ status: 404, body: { errors: [] } });
    await call(s, 'POST', '/v1/totp/keys/b', { body: { key: SECRET } });
    await call(s, 'PUT', '/v1/totp/keys/a', { body: { key: SECRET } });
    expect((await call(s, 'GET', '/v1/totp/keys?list=true')).body.data.keys).toEqual(['a', 'b']);
    expect((await call(s, 'GET', '/v1/otp2/keys/a')).status).toBe(404);
    expect((await call(s, 'DELETE', '/v1/totp/keys/a')).status).toBe(204);
    expect((await call(s, 'DELETE', '/v1/totp/keys/a')).status).toBe(204);
    expect((await call(s, 'GET', '/v1/totp/keys/a')).status).toBe(404);
    expect((await call(s, 'DELETE', '/v1/totp/code/b')).status).toBe(405);
    expect((await call(s, 'PATCH', '/v1/totp/keys/b', { body: {} })).status).toBe(405);
    expect((await call(s, 'GET', '/v1/totp/other')).status).toBe(404);
  });

  test('keys and used codes survive snapshot and restore', async () => {
    await call(s, 'POST', '/v1/totp/keys/k', { body: { key: SECRET } });
    const code = independent().generate(SECRET);
    await call(s, 'POST', '/v1/totp/code/k', { body: { code } });
    const snap = JSON.parse(JSON.stringify(s.api.snapshot()));
    expect(JSON.stringify(snap)).not.toContain(SECRET);
    const t = await startSecrets({ totp: 'totp' }, clock);
    try {
      t.api.restore(snap);
      expect((await call(t, 'GET', '/v1/totp/code/k')).body.data.code).toBe(code);
      expect((await call(t, 'POST', '/v1/totp/code/k', { body: { code } })).status).toBe(400);
    } finally { await t.stop(); }
  });
});
