import * as fs from 'fs';
import { isIP } from 'net';
import * as tls from 'tls';

/** TLS material of one API, as files (never contents in the app or the synthesized output). */
export interface TlsFiles {
  /** PEM bundle of the certificate authorities to trust (in place of the system's). */
  readonly caFile?: string;
  /** PEM client certificate, for a server that verifies clients. */
  readonly certFile?: string;
  /** PEM private key of the client certificate. */
  readonly keyFile?: string;
  /** Accept any server certificate (testing only). */
  readonly skipVerify?: boolean;
  /** Where each setting came from, for messages: `PLATFORM_CACERT` or `provider caCertFile`. */
  readonly sources: { readonly ca?: string; readonly cert?: string; readonly key?: string; readonly skipVerify?: string };
}

/** What undici's `connect` option takes. */
export interface TlsConnectOptions {
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
  readonly rejectUnauthorized?: boolean;
}

/** Reads the files; an unreadable one is an error naming the setting and the file. */
export function loadTls(files: TlsFiles): TlsConnectOptions {
  const read = (file: string | undefined, source: string | undefined, what: string): Buffer | undefined => {
    if (!file) return undefined;
    try {
      return fs.readFileSync(file);
    } catch (e) {
      throw new Error(`${source}: cannot read the ${what} file "${file}": ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  };
  if (Boolean(files.certFile) !== Boolean(files.keyFile)) {
    const [given, missing] = files.certFile ? [files.sources.cert, 'client key'] : [files.sources.key, 'client certificate'];
    throw new Error(`${given} is set but the ${missing} is not: a client certificate needs both the certificate and its key`);
  }
  return {
    ca: read(files.caFile, files.sources.ca, 'CA bundle'),
    cert: read(files.certFile, files.sources.cert, 'client certificate'),
    key: read(files.keyFile, files.sources.key, 'client key'),
    ...(files.skipVerify ? { rejectUnauthorized: false } : {}),
  };
}

/** True for 127.0.0.0/8, ::1 and `localhost`: plain HTTP never leaves the machine. */
export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || h === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(h);
  return false;
}

/** Parses a boolean environment value (`1`/`true`/`yes`, `0`/`false`/`no`/empty); anything else names the variable. */
export function envFlag(env: NodeJS.ProcessEnv, name: string): boolean | undefined {
  const v = env[name];
  if (v === undefined) return undefined;
  const s = v.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(s)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(s)) return false;
  throw new Error(`${name} must be true or false (1/0), got "${v}"`);
}

/** An address as shown in messages: no user or password, no query. */
export function displayUrl(u: URL): string {
  return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
}

/** TLS errors of Node that mean "the server's certificate is not trusted". */
const UNTRUSTED = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS_CERT_ALTNAME/;
/** TLS alerts that mean "the server wants a client certificate" (TLS 1.3 says so after the handshake). */
const CLIENT_CERT_WANTED = /CERTIFICATE_REQUIRED|ALERT_HANDSHAKE_FAILURE|ALERT_BAD_CERTIFICATE|ALERT_UNKNOWN_CA|certificate required|bad certificate|unknown ca/i;

/** A sentence for a failed connection: what was tried and which settings to check. */
export function connectionHint(code: string, message: string, url: string, vars: { address: string; ca: string; cert: string; key: string; skipVerify: string }): string {
  if (CLIENT_CERT_WANTED.test(code) || CLIENT_CERT_WANTED.test(message)) {
    return `${url} refused the TLS connection: it wants a client certificate it trusts; set ${vars.cert} and ${vars.key}`;
  }
  if (UNTRUSTED.test(code)) {
    return `the certificate of ${url} is not trusted (${code}): set ${vars.ca} to the PEM bundle of its certificate authority`;
  }
  return `could not reach ${url}: check ${vars.address}`;
}

/**
 * Why a TLS connection fails, learnt from a connection of its own: a server that wants a client
 * certificate says so (TLS 1.3) only in an alert that the HTTP client reports as "other side
 * closed". undefined when the connection works or the reason is not a TLS one.
 */
export function diagnoseTls(url: URL, options: TlsConnectOptions, timeoutMs = 5000): Promise<{ code: string; message: string } | undefined> {
  return new Promise((resolve) => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const socket = tls.connect({
      host, port: Number(url.port || 443), servername: isIP(host) ? undefined : host, ...options,
    });
    const done = (r: { code: string; message: string } | undefined) => { clearTimeout(timer); socket.destroy(); resolve(r); };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    socket.on('secureConnect', () => socket.write(`HEAD / HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`));
    socket.on('data', () => done(undefined));
    socket.on('error', (e: NodeJS.ErrnoException) => done({ code: e.code ?? '', message: e.message }));
    socket.on('close', () => done(undefined));
  });
}
