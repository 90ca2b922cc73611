import * as net from 'net';

/** One HTTP response read off a raw socket. */
export interface RawResponse {
  readonly status: number;
  /** Header names lower-cased. */
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** A client connection over a plain TCP socket: writes bytes as given, parses responses as they come. */
export class RawConnection {
  public static open(address: string): Promise<RawConnection> {
    const u = new URL(address);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(u.port), u.hostname, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  private buffer = Buffer.alloc(0);
  private closed = false;
  private readonly waiters: (() => void)[] = [];
  /** Resolves when the server closes the connection (or it fails). */
  public readonly closedByServer: Promise<void>;

  private constructor(public readonly socket: net.Socket) {
    socket.on('data', (d: Buffer) => { this.buffer = Buffer.concat([this.buffer, d]); this.wake(); });
    socket.on('error', () => undefined);
    this.closedByServer = new Promise((resolve) => socket.once('close', () => { this.closed = true; this.wake(); resolve(); }));
  }

  public write(data: string | Buffer): void {
    this.socket.write(data);
  }

  /** Reads the next complete response; rejects when the connection closes first. */
  public async response(): Promise<RawResponse> {
    for (;;) {
      const r = this.take();
      if (r) return r;
      if (this.closed) throw new Error(`connection closed; unparsed: ${JSON.stringify(this.buffer.toString('latin1'))}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  public destroy(): void {
    this.socket.destroy();
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** One response from the buffer if it is complete (Content-Length or chunked framing). */
  private take(): RawResponse | undefined {
    const headEnd = this.buffer.indexOf('\r\n\r\n');
    if (headEnd < 0) return undefined;
    const lines = this.buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
    const status = Number(lines[0].split(' ')[1]);
    const headers: Record<string, string> = {};
    for (const l of lines.slice(1)) {
      const i = l.indexOf(':');
      headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
    }
    let rest = this.buffer.subarray(headEnd + 4);
    let body: Buffer;
    if (headers['transfer-encoding'] === 'chunked') {
      const parts: Buffer[] = [];
      for (;;) {
        const eol = rest.indexOf('\r\n');
        if (eol < 0) return undefined;
        const size = parseInt(rest.subarray(0, eol).toString('latin1'), 16);
        if (rest.length < eol + 2 + size + 2) return undefined;
        parts.push(rest.subarray(eol + 2, eol + 2 + size));
        rest = rest.subarray(eol + 2 + size + 2);
        if (size === 0) break;
      }
      body = Buffer.concat(parts);
    } else {
      const n = Number(headers['content-length'] ?? 0);
      if (rest.length < n) return undefined;
      body = rest.subarray(0, n);
      rest = rest.subarray(n);
    }
    this.buffer = rest;
    return { status, headers, body: body.toString('utf8') };
  }
}
