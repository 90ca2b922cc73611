import * as http from 'http';
import * as net from 'net';
import { Duplex } from 'stream';
import { RequestFramer } from './request-framer';

/** Limits the TCP front enforces on every connection. */
export interface FrontLimits {
  /** A request's head (request line and headers) must arrive within this time; a new connection's first head too. */
  readonly headersTimeoutMs: number;
  /** A request (head and body) must arrive within this time. */
  readonly requestTimeoutMs: number;
  /** Connections beyond this number are closed at once. */
  readonly maxConnections: number;
}

/**
 * The TCP listener in front of an emulator's `http.Server`. Each accepted socket is handed to
 * the HTTP server through a `FramedSocket`, which rewrites `LIST` request lines (see
 * `RequestFramer`) and destroys the connection when a request's head or body trickles in slower
 * than the limits allow (slowloris). The HTTP server itself never listens: its own header and
 * request timeouts only run for servers that listen, hence the timers here.
 */
export class Front {
  public readonly listener: net.Server;
  private readonly sockets = new Set<net.Socket>();

  constructor(private readonly http: http.Server, private readonly limits: FrontLimits) {
    // As Node's HTTP server sets them: without noDelay Nagle's algorithm holds small answers ~40 ms;
    // without allowHalfOpen a client that half-closes after its request would lose the answer.
    this.listener = net.createServer({ noDelay: true, allowHalfOpen: true }, (socket) => this.accept(socket));
    this.listener.maxConnections = limits.maxConnections;
    // Accept errors (EMFILE when out of descriptors) must not end the process; the listener carries on.
    this.listener.on('error', () => undefined);
  }

  /** Stops accepting and closes every open connection. */
  public async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.listener.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }

  private accept(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    let headTimer: NodeJS.Timeout | undefined;
    let requestTimer: NodeJS.Timeout | undefined;
    const drop = () => socket.destroy();
    const clear = () => { clearTimeout(headTimer); clearTimeout(requestTimer); };
    socket.once('close', clear);
    // A connection that never sends a request is held no longer than a slow head.
    headTimer = setTimeout(drop, this.limits.headersTimeoutMs);
    const framer = new RequestFramer({
      onRequestStart: () => {
        clearTimeout(headTimer);
        headTimer = setTimeout(drop, this.limits.headersTimeoutMs);
        requestTimer = setTimeout(drop, this.limits.requestTimeoutMs);
      },
      onHeadEnd: () => clearTimeout(headTimer),
      onRequestEnd: clear,
    });
    this.http.emit('connection', new FramedSocket(socket, framer));
  }
}

/**
 * The client's socket as the HTTP server sees it: reads pass through the framer, writes, timeouts
 * and destruction go to the real socket.
 */
class FramedSocket extends Duplex {
  constructor(private readonly socket: net.Socket, framer: RequestFramer) {
    super({ allowHalfOpen: true });
    socket.on('data', (d: Buffer) => {
      let out: Buffer;
      try {
        out = framer.feed(d);
      } catch {
        socket.destroy(); // never expected; but a framing bug must cost one connection, not the process
        return;
      }
      if (out.length && !this.push(out)) socket.pause();
    });
    socket.on('end', () => this.push(null));
    socket.on('timeout', () => this.emit('timeout'));
    socket.on('error', (e) => this.destroy(e));
    socket.on('close', () => this.destroy());
  }

  public get remoteAddress(): string | undefined { return this.socket.remoteAddress; }
  public get remotePort(): number | undefined { return this.socket.remotePort; }
  public get localAddress(): string | undefined { return this.socket.localAddress; }
  public get localPort(): number | undefined { return this.socket.localPort; }

  public setTimeout(ms: number, callback?: () => void): this {
    this.socket.setTimeout(ms);
    if (callback) this.once('timeout', callback);
    return this;
  }

  public setNoDelay(noDelay?: boolean): this { this.socket.setNoDelay(noDelay); return this; }
  public setKeepAlive(enable?: boolean, delay?: number): this { this.socket.setKeepAlive(enable, delay); return this; }

  public override _read(): void { this.socket.resume(); }

  public override _write(chunk: Buffer, encoding: BufferEncoding, callback: (e?: Error | null) => void): void {
    this.socket.write(chunk, encoding, callback);
  }

  /** Several buffered writes (an answer's head and body) leave in one segment. */
  public override _writev(chunks: { chunk: Buffer; encoding: BufferEncoding }[], callback: (e?: Error | null) => void): void {
    this.socket.write(Buffer.concat(chunks.map((c) => c.chunk)), callback);
  }

  public override _final(callback: (e?: Error | null) => void): void {
    this.socket.end(callback);
  }

  public override _destroy(error: Error | null, callback: (e?: Error | null) => void): void {
    this.socket.destroy();
    callback(error);
  }
}
