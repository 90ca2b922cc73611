/** The otpauth URL of a key, in the exact form the service writes (Go's url encoding). */
export interface OtpauthKey {
  readonly issuer: string;
  readonly accountName: string;
  readonly secret: string;
  readonly algorithm: string;
  readonly digits: number;
  readonly period: number;
}

/** Go's `url.PathEscape` in path mode: unreserved characters and `$&+,/:;=@` stay as they are. */
function escapePath(s: string): string {
  return Array.from(Buffer.from(s, 'utf8')).map((b) => {
    const c = String.fromCharCode(b);
    return /[A-Za-z0-9\-_.~$&+,/:;=@]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }).join('');
}

/** Go's `url.QueryEscape`: unreserved characters stay, a space becomes `+`. */
function escapeQuery(s: string): string {
  return Array.from(Buffer.from(s, 'utf8')).map((b) => {
    const c = String.fromCharCode(b);
    // The real service escapes a space in the query as %20 too (Go's url.PathEscape), not '+'.
    return /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }).join('');
}

/** `otpauth://totp/<issuer>:<account>?algorithm=SHA1&digits=6&issuer=<issuer>&period=30&secret=<base32>` */
export function otpauthUrl(k: OtpauthKey): string {
  const query = [
    ['algorithm', k.algorithm], ['digits', String(k.digits)], ['issuer', k.issuer],
    ['period', String(k.period)], ['secret', k.secret],
  ].map(([n, v]) => `${n}=${escapeQuery(v)}`).join('&');
  return `otpauth://totp/${escapePath(`${k.issuer}:${k.accountName}`)}?${query}`;
}

/**
 * Reads an otpauth URL as the service does: the `issuer` query value, else the label part
 * before `:`; the account after it; `secret`; `period` (30 when absent; not a number: error);
 * `digits` 8 or else 6; `algorithm` SHA256/SHA512 or else SHA1 (missing values fall back to the defaults).
 */
export function parseOtpauthUrl(raw: string): OtpauthKey {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error('an error occurred while parsing url string');
  }
  const label = decodeURIComponent(u.pathname.replace(/^\/+/, ''));
  const colon = label.indexOf(':');
  const q = u.searchParams;
  const periodRaw = q.get('period') ?? '';
  let period = 30;
  if (periodRaw !== '') {
    if (!/^[+-]?\d+$/.test(periodRaw)) throw new Error('an error occurred while parsing period value in url');
    period = Number(periodRaw);
  }
  const alg = q.get('algorithm') ?? '';
  return {
    issuer: q.get('issuer') || (colon >= 0 ? label.slice(0, colon) : ''),
    accountName: colon >= 0 ? label.slice(colon + 1) : label,
    secret: q.get('secret') ?? '',
    algorithm: ['SHA256', 'SHA512'].includes(alg) ? alg : 'SHA1',
    digits: q.get('digits') === '8' ? 8 : 6,
    period,
  };
}
