import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ServedApi, ServeOptions } from '../../lib/core/emulator-kit/server';
import { MeshEmulator } from '../../lib/mesh/emulator/mesh-emulator';
import { PlatformEmulator } from '../../lib/platform/emulator/platform-emulator';
import { SecretsEmulator } from '../../lib/secrets/emulator/secrets-emulator';
import { RawConnection } from '../support/raw-http';

const TOKEN = 'hostile-input-root-token';
const KV = '/v1/secret/data/app';

/** Errors that escaped the emulator: each would have killed a process running it. */
const escaped: unknown[] = [];
const onEscape = (e: unknown) => { escaped.push(e); };
beforeAll(() => { process.on('unhandledRejection', onEscape); process.on('uncaughtException', onEscape); });
afterAll(() => { process.off('unhandledRejection', onEscape); process.off('uncaughtException', onEscape); });

let served: ServedApi;
async function start(options: Partial<ServeOptions> = {}): Promise<ServedApi> {
  served = await ServedApi.start(new SecretsEmulator({ rootToken: TOKEN }), { port: 0, ...options });
  return served;
}
afterEach(async () => { await served?.stop(); });

async function writeSecret(value: string): Promise<number> {
  const res = await fetch(`${served.address}${KV}`, {
    method: 'POST', headers: { 'x-secrets-token': TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify({ data: { value } }),
  });
  await res.text();
  return res.status;
}

function head(method: string, target: string, headers: Record<string, string | number>): string {
  const lines = Object.entries({ host: 'emulator', 'x-secrets-token': TOKEN, ...headers }).map(([k, v]) => `${k}: ${v}`);
  return `${method} ${target} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

test('a client that closes mid-body does not take the emulator down', async () => {
  await start();
  const c = await RawConnection.open(served.address);
  c.write(head('POST', KV, { 'content-type': 'application/json', 'content-length': 1000 }));
  c.write('{"data":{"val');
  await new Promise((r) => setTimeout(r, 50));
  c.destroy();
  await new Promise((r) => setTimeout(r, 50));
  expect(await writeSecret('after the abort')).toBe(200);
  expect(escaped).toEqual([]);
});

test('a body announced larger than the cap is refused with 413 without being read', async () => {
  await start({ maxBodyBytes: 1024 });
  const c = await RawConnection.open(served.address);
  // 5 GiB announced, a few bytes sent: the answer comes without the rest.
  c.write(head('POST', KV, { 'content-type': 'application/json', 'content-length': 5 * 1024 ** 3 }));
  c.write('{"data":');
  const r = await c.response();
  expect(r.status).toBe(413);
  expect(JSON.parse(r.body)).toEqual({ errors: ['request body too large: the limit is 1024 bytes'] });
  await c.closedByServer;
  expect(await writeSecret('still serving')).toBe(200);
});

test('a chunked body that grows past the cap is refused with 413', async () => {
  await start({ maxBodyBytes: 1024 });
  const c = await RawConnection.open(served.address);
  c.write(head('POST', KV, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }));
  const chunk = 'x'.repeat(600);
  c.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
  c.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
  const r = await c.response();
  expect(r.status).toBe(413);
  await c.closedByServer;
});

test('the default cap is 32 MiB', async () => {
  await start();
  const c = await RawConnection.open(served.address);
  c.write(head('POST', KV, { 'content-type': 'application/json', 'content-length': 32 * 1024 * 1024 + 1 }));
  expect((await c.response()).status).toBe(413);
});

test('a deeply nested JSON document is refused with 400 and never stored', async () => {
  await start();
  const deep = `{"data":{"v":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
  const res = await fetch(`${served.address}${KV}`, {
    method: 'POST', headers: { 'x-secrets-token': TOKEN, 'content-type': 'application/json' }, body: deep,
  });
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ errors: ['request body nests deeper than 512 levels'] });
  const read = await fetch(`${served.address}${KV}`, { headers: { 'x-secrets-token': TOKEN } });
  expect(read.status).toBe(404);
  // Nesting within the cap is served, and brackets inside strings do not count.
  expect(await writeSecret('['.repeat(10_000))).toBe(200);
  expect(escaped).toEqual([]);
});

test('the host answers its own errors in each API\'s shape', async () => {
  const deep = `${'['.repeat(600)}${']'.repeat(600)}`;
  const platform = await ServedApi.start(new PlatformEmulator({ adminToken: 't' }), { port: 0 });
  const mesh = await ServedApi.start(new MeshEmulator({ managementToken: 't' }), { port: 0 });
  try {
    const p = await fetch(`${platform.address}/api/v2/organizations`, { method: 'POST', body: deep });
    expect(p.status).toBe(400);
    expect(p.headers.get('content-type')).toBe('application/vnd.api+json');
    expect(await p.json()).toEqual({ errors: [{ status: '400', title: 'bad request', detail: 'request body nests deeper than 512 levels' }] });
    const m = await fetch(`${mesh.address}/v1/config`, { method: 'PUT', body: deep });
    expect(m.status).toBe(400);
    expect(await m.text()).toBe('request body nests deeper than 512 levels\n');
  } finally {
    await platform.stop();
    await mesh.stop();
  }
});

test('a handler that throws is answered 500 in the API\'s shape and the emulator keeps serving', async () => {
  const emu = new SecretsEmulator({ rootToken: TOKEN });
  const original = emu.handle.bind(emu);
  let fail = true;
  emu.handle = async (req) => {
    if (fail) { fail = false; throw new RangeError('Maximum call stack size exceeded'); }
    return original(req);
  };
  served = await ServedApi.start(emu, { port: 0 });
  const res = await fetch(`${served.address}${KV}`, { headers: { 'x-secrets-token': TOKEN } });
  expect(res.status).toBe(500);
  expect(await res.json()).toEqual({ errors: ['internal error: Maximum call stack size exceeded'] });
  expect(await writeSecret('next')).toBe(200);
});

test('an answer that cannot be serialised is a 500, not a crash', async () => {
  const emu = new SecretsEmulator({ rootToken: TOKEN });
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  emu.handle = async () => ({ status: 200, body: cyclic });
  served = await ServedApi.start(emu, { port: 0 });
  const res = await fetch(`${served.address}/v1/secret/data/x`, { headers: { 'x-secrets-token': TOKEN } });
  expect(res.status).toBe(500);
  expect(escaped).toEqual([]);
});

describe('slow clients (slowloris)', () => {
  test('a connection that trickles its headers is closed after the headers timeout', async () => {
    await start({ headersTimeoutMs: 300, requestTimeoutMs: 5000 });
    const c = await RawConnection.open(served.address);
    c.write(`GET ${KV} HTTP/1.1\r\nhost: emulator\r\n`);
    const trickle = setInterval(() => c.write('x-a: b\r\n'), 50);
    try {
      await c.closedByServer;
    } finally {
      clearInterval(trickle);
    }
    expect(c.socket.destroyed).toBe(true);
  });

  test('a connection that never sends a request is closed', async () => {
    await start({ headersTimeoutMs: 300 });
    const c = await RawConnection.open(served.address);
    await c.closedByServer;
  });

  test('a connection that trickles its body is closed after the request timeout', async () => {
    await start({ headersTimeoutMs: 5000, requestTimeoutMs: 300 });
    const c = await RawConnection.open(served.address);
    c.write(head('POST', KV, { 'content-type': 'application/json', 'content-length': 100 }));
    const trickle = setInterval(() => c.write(' '), 50);
    try {
      await c.closedByServer;
    } finally {
      clearInterval(trickle);
    }
  });

  test('connections beyond the limit are closed at once; the others are served', async () => {
    await start({ maxConnections: 3 });
    const held = await Promise.all([1, 2, 3].map(() => RawConnection.open(served.address)));
    const extra = await RawConnection.open(served.address);
    await extra.closedByServer;
    held[0].write(head('GET', KV, {}));
    expect((await held[0].response()).status).toBe(404);
    for (const c of held) c.destroy();
  });

  test('an idle keep-alive connection is closed after the keep-alive timeout; a slow answer is not cut off', async () => {
    await start({ latencyMs: 400 });
    served.server.keepAliveTimeout = 200;
    const c = await RawConnection.open(served.address);
    c.write(head('GET', KV, {}));
    expect((await c.response()).status).toBe(404);
    c.write(head('GET', KV, {})); // at once: the keep-alive timer must not fire during the 400 ms answer
    expect((await c.response()).status).toBe(404);
    await c.closedByServer;
  });

  test('a client that half-closes while its answer is being prepared gets the answer', async () => {
    await start({ latencyMs: 200 });
    const c = await RawConnection.open(served.address);
    c.write(head('GET', KV, {}));
    c.socket.end();
    expect((await c.response()).status).toBe(404);
  });

  test('a keep-alive client that sends requests in time is not cut off', async () => {
    await start({ headersTimeoutMs: 300, requestTimeoutMs: 300 });
    const c = await RawConnection.open(served.address);
    for (let i = 0; i < 3; i++) {
      c.write(head('GET', KV, {}));
      expect((await c.response()).status).toBe(404);
    }
    c.destroy();
  });
});

test('data files are written owner-only (0600) in an owner-only directory (0700)', async () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'converge-modes-'));
  const dataDir = path.join(base, 'data');
  try {
    await start({ dataDir });
    expect(await writeSecret('s3cr3t')).toBe(200);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    // The journal holds the write; a clean stop compacts it into the snapshot.
    expect(fs.readdirSync(dataDir)).toContain('secrets.journal');
    await served.stop();
    const files = fs.readdirSync(dataDir);
    expect(files).toContain('secrets.json');
    for (const f of files) expect(fs.statSync(path.join(dataDir, f)).mode & 0o777).toBe(0o600);
  } finally {
    served = undefined as unknown as ServedApi;
    fs.rmSync(base, { recursive: true, force: true });
  }
});
