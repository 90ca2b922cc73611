/**
 * Follows HTTP/1.1 request boundaries in the byte stream a client sends (request line, headers,
 * then a body framed by `Content-Length` or chunked encoding), so that the emulator's TCP front
 * can (a) rewrite the request line of each `LIST` request, a method Node's HTTP parser refuses,
 * and (b) time the reading of each request's head and body. Everything else passes unchanged.
 *
 * `LIST <target> HTTP/1.1` becomes `GET <target> HTTP/1.1` followed by the header
 * `X-Emulator-Method: LIST`; the server turns it back into `LIST`. Input the framer cannot follow
 * (a malformed or oversized head, a bad length) switches it to pass-through for the rest of the
 * connection: Node's parser then answers 400/431 and closes the connection, as it would anyway.
 */
export const METHOD_MARKER_HEADER = 'x-emulator-method';

/** Longest request line or header line the framer buffers before giving up (Node's own limit is 16 KiB in all). */
const MAX_LINE = 16 * 1024;

type State = 'line' | 'headers' | 'body' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'pass';

export interface FramerEvents {
  /** The first byte of a request arrived. */
  onRequestStart?(): void;
  /** The request's head (request line and headers) is complete. */
  onHeadEnd?(): void;
  /** The whole request (head and body) has arrived. */
  onRequestEnd?(): void;
}

export class RequestFramer {
  private state: State = 'line';
  /** Bytes of the current line not yet complete (request line, header, chunk size, trailer). */
  private line: Buffer[] = [];
  private lineLength = 0;
  /** Body bytes still to come (fixed length or the current chunk). */
  private remaining = 0;
  private contentLength: number | undefined;
  private chunked = false;
  private inRequest = false;

  constructor(private readonly events: FramerEvents = {}) {}

  /** Takes the next bytes from the client; returns what to hand to the HTTP parser. */
  public feed(chunk: Buffer): Buffer {
    const out: Buffer[] = [];
    let i = 0;
    while (i < chunk.length) {
      switch (this.state) {
        case 'pass':
          out.push(chunk.subarray(i));
          return Buffer.concat(out);
        case 'body': {
          const n = Math.min(this.remaining, chunk.length - i);
          out.push(chunk.subarray(i, i + n));
          i += n;
          this.remaining -= n;
          if (this.remaining === 0) this.endRequest();
          break;
        }
        case 'chunk-data': {
          const n = Math.min(this.remaining, chunk.length - i);
          out.push(chunk.subarray(i, i + n));
          i += n;
          this.remaining -= n;
          if (this.remaining === 0) this.state = 'chunk-end';
          break;
        }
        default: {
          // Line-oriented states: collect up to and including LF.
          if (this.state === 'line' && !this.inRequest) {
            // Empty lines before a request line are allowed (and skipped by Node).
            if (chunk[i] === 0x0d || chunk[i] === 0x0a) { out.push(chunk.subarray(i, i + 1)); i++; break; }
            this.inRequest = true;
            this.events.onRequestStart?.();
          }
          const lf = chunk.indexOf(0x0a, i);
          const end = lf < 0 ? chunk.length : lf + 1;
          const part = chunk.subarray(i, end);
          i = end;
          if (this.state !== 'line') out.push(part); // only the request line is held back (it may be rewritten)
          this.line.push(part);
          this.lineLength += part.length;
          if (lf < 0) {
            if (this.lineLength > MAX_LINE) this.giveUp(out);
            break;
          }
          const text = Buffer.concat(this.line).toString('latin1');
          this.line = [];
          this.lineLength = 0;
          this.onLine(text, out);
        }
      }
    }
    return Buffer.concat(out);
  }

  private onLine(text: string, out: Buffer[]): void {
    const content = text.replace(/\r?\n$/, '');
    switch (this.state) {
      case 'line': {
        this.contentLength = undefined;
        this.chunked = false;
        this.state = 'headers';
        if (content.startsWith('LIST ')) {
          out.push(Buffer.from(`GET ${text.slice('LIST '.length)}${METHOD_MARKER_HEADER}: LIST\r\n`, 'latin1'));
        } else {
          out.push(Buffer.from(text, 'latin1'));
        }
        return;
      }
      case 'headers': {
        if (content === '') { this.headEnd(); return; }
        const colon = content.indexOf(':');
        if (colon <= 0) return; // Node rejects it; nothing to frame
        const name = content.slice(0, colon).trim().toLowerCase();
        const value = content.slice(colon + 1).trim();
        if (name === 'content-length') {
          const n = /^\d{1,15}$/.test(value) ? Number(value) : NaN;
          if (Number.isNaN(n) || (this.contentLength !== undefined && this.contentLength !== n)) { this.state = 'pass'; return; }
          this.contentLength = n;
        } else if (name === 'transfer-encoding') {
          this.chunked = /(^|,)\s*chunked\s*$/i.test(value);
        }
        return;
      }
      case 'chunk-size': {
        const size = parseInt(content.split(';')[0].trim(), 16);
        if (Number.isNaN(size) || size < 0) { this.state = 'pass'; return; }
        if (size === 0) { this.state = 'trailers'; return; }
        this.remaining = size;
        this.state = 'chunk-data';
        return;
      }
      case 'chunk-end':
        this.state = 'chunk-size';
        return;
      case 'trailers':
        if (content === '') this.endRequest();
        return;
      default:
    }
  }

  private headEnd(): void {
    this.events.onHeadEnd?.();
    if (this.chunked) { this.state = 'chunk-size'; return; }
    if (this.contentLength) { this.remaining = this.contentLength; this.state = 'body'; return; }
    this.endRequest();
  }

  private endRequest(): void {
    this.state = 'line';
    this.inRequest = false;
    this.events.onRequestEnd?.();
  }

  /** A line too long to follow: hand over what was held and stop framing. */
  private giveUp(out: Buffer[]): void {
    if (this.state === 'line') out.push(...this.line);
    this.line = [];
    this.state = 'pass';
  }
}
