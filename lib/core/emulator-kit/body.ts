import * as http from 'http';

/** Default cap on a request body: far above any real API call, far below what exhausts memory. */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
/** Default cap on JSON nesting: real documents stay below 20 levels; recursive code overflows in the thousands. */
export const DEFAULT_MAX_JSON_DEPTH = 512;

export type BodyResult =
  | { readonly kind: 'ok'; readonly body: Buffer }
  /** Longer than the cap (announced or received): answer 413 and close without reading the rest. */
  | { readonly kind: 'too-large' }
  /** The client went away mid-body: nothing to answer. */
  | { readonly kind: 'aborted' };

/** Reads a request body, stopping at `limit` bytes; never rejects. */
export function readBody(req: http.IncomingMessage, limit: number): Promise<BodyResult> {
  const announced = Number(req.headers['content-length']);
  if (Number.isFinite(announced) && announced > limit) return Promise.resolve({ kind: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (r: BodyResult) => {
      if (done) return;
      done = true;
      req.off('data', onData);
      resolve(r);
    };
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > limit) { req.pause(); finish({ kind: 'too-large' }); return; }
      chunks.push(c);
    };
    req.on('data', onData);
    req.once('end', () => finish({ kind: 'ok', body: Buffer.concat(chunks) }));
    req.once('aborted', () => finish({ kind: 'aborted' }));
    req.once('error', () => finish({ kind: 'aborted' }));
    req.once('close', () => { if (!req.complete) finish({ kind: 'aborted' }); });
  });
}

/**
 * Whether a body that starts as a JSON object or array nests arrays and objects deeper than `max`. A linear scan
 * that skips strings, so the check costs nothing next to parsing and never recurses.
 */
export function jsonTooDeep(body: Buffer, max: number): boolean {
  let start = 0;
  while (start < body.length && (body[start] === 0x20 || body[start] === 0x09 || body[start] === 0x0a || body[start] === 0x0d)) start++;
  if (body[start] !== 0x7b && body[start] !== 0x5b) return false; // not a JSON object or array: binary uploads stay untouched
  let depth = 0;
  let inString = false;
  for (let i = start; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped byte
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) { if (++depth > max) return true; } // { [
    else if (c === 0x7d || c === 0x5d) depth--; // } ]
  }
  return false;
}
