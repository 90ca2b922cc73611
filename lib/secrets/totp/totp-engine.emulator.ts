import { randomBytes } from 'crypto';
import * as QRCode from 'qrcode';
import { Clock, SYSTEM_CLOCK } from '../../core/clock';
import { EmuResponse } from '../../core/emulator-kit/types';
import { Engine, EngineRequest, ownEntry } from '../emulator/engine';
import { boolParam, durationParam, intParam, stringParam } from '../emulator/field-params';
import { envelope, errors, keyList, noContent, notFound, objectBody, RequestError } from '../emulator/responses';
import { otpauthUrl, parseOtpauthUrl } from './otpauth-url.emulator';
import { base32Decode, base32Encode, TOTP_ALGORITHMS, totpAt, totpMatch } from './otp.emulator';

/** A stored key. `key` is the base32 secret. */
interface TotpKeyRecord {
  key: string;
  issuer: string;
  accountName: string;
  algorithm: string;
  digits: number;
  period: number;
  skew: number;
}

interface TotpState {
  keys: Record<string, TotpKeyRecord>;
  /** `<name>_<code>` -> epoch milliseconds until which the code counts as used. */
  used: Record<string, number>;
}

const CODE_USED = 'code already used; wait until the next time period';

/**
 * The TOTP engine: `keys/<name>` (create, read, list, delete) and `code/<name>` (generate with
 * GET, validate with POST), codes per RFC 6238.
 *
 * As the real service does, where the spec is silent:
 * - A generated, exported key answers 200 with `url` and `barcode` (a PNG of `qr_size` pixels,
 *   base64; none when `qr_size` is 0); not exported: 204. An imported key: 204.
 * - With `generate` true a `key` or `url` is refused (400 "a key should not be passed if generate is true",
 *   "a url should not be passed if generate is true"); with `generate` false, `exported`,
 *   `key_size` and `qr_size` are ignored, `skew` is kept (it applies to validation).
 * - An imported `url` sets issuer, account, secret, period, digits and algorithm (the body's
 *   values of those are ignored); an unknown digits or algorithm in the URL falls back to 6 / SHA1.
 * - Writing an existing name replaces the key. Reading or deleting an absent key: 404 / 204.
 * - A validated code is remembered for `period * (2 * skew + 1)` seconds; presenting it again
 *   in that time answers 400 "code already used; wait until the next time period".
 * - A code of the wrong length is 400 "invalid number of digits for the code", as the real service answers.
 */
export class TotpEngine implements Engine {
  public readonly type = 'totp';
  private state: TotpState = { keys: {}, used: {} };

  /** @param clock what time it is (the codes generated and accepted) */
  constructor(private readonly clock: Clock = SYSTEM_CLOCK) {}

  public async handle(r: EngineRequest): Promise<EmuResponse> {
    const m = /^(keys|code)(?:\/(.*))?$/.exec(r.subPath);
    if (!m) return errors(404, 'unsupported path');
    const [, section, rawName = ''] = m;
    const name = rawName.replace(/\/$/, '');
    if (section === 'keys' && name === '') {
      return r.method === 'LIST' ? this.list() : errors(405, 'unsupported operation');
    }
    if (name === '' || name.includes('/')) return errors(404, 'unsupported path');
    if (section === 'keys') {
      if (r.method === 'GET') return this.read(name);
      if (r.method === 'POST') return this.create(name, objectBody(r.body));
      if (r.method === 'DELETE') return this.remove(name);
      return errors(405, 'unsupported operation');
    }
    if (r.method === 'GET') return this.generateCode(name);
    if (r.method === 'POST') return this.validateCode(name, objectBody(r.body));
    return errors(405, 'unsupported operation');
  }

  public snapshot(): unknown {
    return this.state;
  }

  public restore(data: unknown): void {
    const d = data as Partial<TotpState> | undefined;
    this.state = { keys: d?.keys ?? {}, used: d?.used ?? {} };
  }

  private key(name: string): TotpKeyRecord | undefined {
    return ownEntry(this.state.keys, name);
  }

  private list(): EmuResponse {
    const keys = Object.keys(this.state.keys).sort();
    return keyList(keys);
  }

  private read(name: string): EmuResponse {
    const k = this.key(name);
    if (!k) return notFound();
    return envelope({ account_name: k.accountName, algorithm: k.algorithm, digits: k.digits, issuer: k.issuer, period: k.period });
  }

  private remove(name: string): EmuResponse {
    delete this.state.keys[name];
    for (const u of Object.keys(this.state.used)) if (u.startsWith(`${name}_`)) delete this.state.used[u];
    return noContent();
  }

  private async create(name: string, b: Record<string, unknown>): Promise<EmuResponse> {
    const generate = boolParam(b, 'generate', false);
    const exported = boolParam(b, 'exported', true);
    const keySize = intParam(b, 'key_size', 20);
    const qrSize = intParam(b, 'qr_size', 200);
    const skew = intParam(b, 'skew', 1);
    let digits = intParam(b, 'digits', 6);
    let period = durationParam(b, 'period', 30);
    let algorithm = stringParam(b, 'algorithm', 'SHA1');
    let issuer = stringParam(b, 'issuer');
    let accountName = stringParam(b, 'account_name');
    let keyString = stringParam(b, 'key');
    const url = stringParam(b, 'url');

    if (digits !== 6 && digits !== 8) throw new RequestError(400, 'the digits value can only be 6 or 8');
    if (!TOTP_ALGORITHMS[algorithm]) throw new RequestError(400, 'the algorithm value is not valid');
    if (period <= 0) throw new RequestError(400, 'the period value must be greater than zero');
    if (skew !== 0 && skew !== 1) throw new RequestError(400, 'the skew value must be 0 or 1');
    if (qrSize < 0) throw new RequestError(400, 'the qr_size value must be greater than or equal to zero');
    if (keySize <= 0) throw new RequestError(400, 'the key_size value must be greater than zero');

    if (generate) {
      if (keyString) throw new RequestError(400, 'a key should not be passed if generate is true');
      if (url) throw new RequestError(400, 'a url should not be passed if generate is true');
      if (!issuer) throw new RequestError(400, 'the issuer value is required when generate is true');
      if (!accountName) throw new RequestError(400, 'the account_name value is required when generate is true');
      keyString = base32Encode(randomBytes(keySize));
    } else {
      if (url) {
        let p;
        try {
          p = parseOtpauthUrl(url);
        } catch (e) {
          throw new RequestError(400, (e as Error).message);
        }
        ({ issuer, accountName, algorithm, digits, period } = p);
        keyString = p.secret;
        if (period <= 0) throw new RequestError(400, 'the period value must be greater than zero');
      }
      if (!keyString) throw new RequestError(400, 'the key value is required');
      try {
        base32Decode(keyString);
      } catch (e) {
        throw new RequestError(400, `invalid key value: ${(e as Error).message}`);
      }
      keyString = keyString.toUpperCase().replace(/=+$/, '');
    }

    const record: TotpKeyRecord = { key: keyString, issuer, accountName, algorithm, digits, period, skew };
    this.state.keys[name] = record;
    if (!generate || !exported) return noContent();
    const otpUrl = otpauthUrl({ issuer, accountName, secret: keyString, algorithm, digits, period });
    const data: Record<string, string> = { url: otpUrl };
    if (qrSize > 0) {
      const png = await QRCode.toBuffer(otpUrl, { type: 'png', width: qrSize, margin: 0, errorCorrectionLevel: 'M' });
      data.barcode = png.toString('base64');
    }
    return envelope(data);
  }

  private generateCode(name: string): EmuResponse {
    const k = this.key(name);
    if (!k) throw new RequestError(400, `unknown key: ${name}`);
    return envelope({ code: totpAt(base32Decode(k.key), this.clock.now(), k.period, k.digits, k.algorithm) });
  }

  private validateCode(name: string, b: Record<string, unknown>): EmuResponse {
    const code = stringParam(b, 'code');
    if (!code) throw new RequestError(400, 'the code value is required');
    const k = this.key(name);
    if (!k) throw new RequestError(400, `unknown key: ${name}`);
    const now = this.clock.now();
    this.forgetExpired(now);
    if (code.length !== k.digits) throw new RequestError(400, 'invalid number of digits for the code');
    const usedKey = `${name}_${code}`;
    if (this.state.used[usedKey] !== undefined) throw new RequestError(400, CODE_USED);
    const matched = totpMatch(code, base32Decode(k.key), now, k.period, k.digits, k.algorithm, k.skew);
    if (matched === undefined) return envelope({ valid: false });
    this.state.used[usedKey] = now + k.period * (2 * k.skew + 1) * 1000;
    return envelope({ valid: true });
  }

  private forgetExpired(now: number): void {
    for (const [u, until] of Object.entries(this.state.used)) if (until <= now) delete this.state.used[u];
  }
}
