/**
 * The emulator driven over plain sockets the way the real services' own clients drive them: the
 * secrets service's Go client, command line and Python client send the `LIST` method (on
 * keep-alive connections, possibly pipelined), booleans as Go's ParseBool reads them, and the
 * platform's clients follow `links.next` exactly as given.
 */
import { ServedApi } from '../../lib/core/emulator-kit/server';
import { MeshEmulator } from '../../lib/mesh/emulator/mesh-emulator';
import { PlatformEmulator } from '../../lib/platform/emulator/platform-emulator';
import { SecretsEmulator } from '../../lib/secrets/emulator/secrets-emulator';
import { RawConnection, RawResponse } from '../support/raw-http';

const TOKEN = 'real-clients-root-token';

function request(method: string, target: string, opts: { body?: string; headers?: Record<string, string> } = {}): string {
  const headers: Record<string, string> = { host: 'emulator', 'x-secrets-token': TOKEN, ...(opts.headers ?? {}) };
  if (opts.body !== undefined) headers['content-length'] = String(Buffer.byteLength(opts.body));
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  return `${method} ${target} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${opts.body ?? ''}`;
}

const json = (r: RawResponse) => JSON.parse(r.body);

describe('secrets service', () => {
  let served: ServedApi;
  let c: RawConnection;
  beforeAll(async () => {
    served = await ServedApi.start(new SecretsEmulator({ rootToken: TOKEN }), { port: 0 });
    for (const key of ['app/db', 'app/api', 'web']) {
      const res = await fetch(`${served.address}/v1/secret/data/${key}`, {
        method: 'POST', headers: { 'x-secrets-token': TOKEN }, body: JSON.stringify({ data: { v: key } }),
      });
      expect(res.status).toBe(200);
    }
  });
  afterAll(async () => { await served.stop(); });
  beforeEach(async () => { c = await RawConnection.open(served.address); });
  afterEach(() => c.destroy());

  test('LIST answers the keys, and the keep-alive connection serves the next request', async () => {
    c.write(request('LIST', '/v1/secret/metadata/'));
    const first = await c.response();
    expect(first.status).toBe(200);
    expect(json(first).data.keys).toEqual(['app/', 'web']);
    expect(first.headers.connection).toBe('keep-alive');
    c.write(request('LIST', '/v1/secret/metadata/app/'));
    expect(json(await c.response()).data.keys).toEqual(['api', 'db']);
  });

  test('two pipelined LIST requests in one write are answered in order', async () => {
    c.write(request('LIST', '/v1/secret/metadata/app/') + request('LIST', '/v1/secret/metadata/'));
    expect(json(await c.response()).data.keys).toEqual(['api', 'db']);
    expect(json(await c.response()).data.keys).toEqual(['app/', 'web']);
  });

  test('a pipeline mixing a write with a body, LIST and a read stays in step', async () => {
    const body = JSON.stringify({ data: { v: 'LIST /v1/secret/metadata/ HTTP/1.1\r\n\r\n' } });
    c.write(request('POST', '/v1/secret/data/pipe/x', { body }) + request('LIST', '/v1/secret/metadata/pipe/')
      + request('GET', '/v1/secret/data/pipe/x'));
    expect((await c.response()).status).toBe(200);
    expect(json(await c.response()).data.keys).toEqual(['x']);
    expect(json(await c.response()).data.data).toEqual({ v: 'LIST /v1/secret/metadata/ HTTP/1.1\r\n\r\n' });
  });

  test('a client that half-closes after sending its request still gets the answer', async () => {
    c.write(request('LIST', '/v1/secret/metadata/app/', { headers: { connection: 'close' } }));
    c.socket.end();
    const r = await c.response();
    expect(json(r).data.keys).toEqual(['api', 'db']);
  });

  test('LIST of an empty folder is a plain 404, as the service answers', async () => {
    c.write(request('LIST', '/v1/secret/metadata/nothing-here/'));
    const r = await c.response();
    expect(r.status).toBe(404);
    expect(json(r)).toEqual({ errors: [] });
  });

  test.each(['true', 'True', 'TRUE', 't', 'T', '1'])('GET ?list=%s lists', async (value) => {
    c.write(request('GET', `/v1/secret/metadata/app/?list=${value}`));
    const r = await c.response();
    expect(r.status).toBe(200);
    expect(json(r).data.keys).toEqual(['api', 'db']);
  });

  test.each(['false', 'False', 'FALSE', 'f', 'F', '0'])('GET ?list=%s reads', async (value) => {
    c.write(request('GET', `/v1/secret/metadata/app/db?list=${value}`));
    const r = await c.response();
    expect(r.status).toBe(200);
    expect(json(r).data.current_version).toBe(1);
  });

  test.each(['yes', 'tRUE', '2', 'on'])('GET ?list=%s is refused with 400, as ParseBool refuses it', async (value) => {
    c.write(request('GET', `/v1/secret/metadata/app/?list=${value}`));
    const r = await c.response();
    expect(r.status).toBe(400);
    expect(json(r)).toEqual({ errors: [] });
  });

  test('error bodies: no token, unmounted path, missing key', async () => {
    c.write(request('LIST', '/v1/secret/metadata/', { headers: { 'x-secrets-token': 'wrong' } }));
    const denied = await c.response();
    expect([denied.status, json(denied)]).toEqual([403, { errors: ['permission denied'] }]);
    c.write(request('LIST', '/v1/nowhere/'));
    const unmounted = await c.response();
    expect([unmounted.status, json(unmounted)]).toEqual([404, { errors: ['no handler for route "nowhere/". route entry not found.'] }]);
    c.write(request('GET', '/v1/secret/data/missing'));
    const missing = await c.response();
    expect([missing.status, json(missing)]).toEqual([404, { errors: [] }]);
  });
});

describe('platform', () => {
  let served: ServedApi;
  const ADMIN = 'platform-admin-token';
  beforeAll(async () => {
    served = await ServedApi.start(new PlatformEmulator({ adminToken: ADMIN, rateLimit: 0 }), { port: 0 });
    for (let i = 1; i <= 5; i++) {
      const res = await fetch(`${served.address}/api/v2/organizations`, {
        method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/vnd.api+json' },
        body: JSON.stringify({ data: { type: 'organizations', attributes: { name: `org-${i}`, email: `o${i}@example.com` } } }),
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => { await served.stop(); });

  test('following links.next exactly as given walks every page once', async () => {
    const names: string[] = [];
    let next: string | null = `${served.address}/api/v2/organizations?page%5Bsize%5D=2`;
    let pages = 0;
    while (next) {
      // Resolved against the current page's address, as an HTTP client resolves any link (absolute links stay as they are).
      const res = await fetch(next, { headers: { authorization: `Bearer ${ADMIN}` } });
      expect(res.status).toBe(200);
      const doc = await res.json() as { data: { attributes: { name: string } }[]; links: { next: string | null } };
      names.push(...doc.data.map((d) => d.attributes.name));
      next = doc.links.next === null ? null : new URL(doc.links.next, next).toString();
      pages++;
    }
    expect(pages).toBe(3);
    expect(names.sort()).toEqual(['org-1', 'org-2', 'org-3', 'org-4', 'org-5']);
  });

  test('error bodies are JSON:API error documents', async () => {
    const res = await fetch(`${served.address}/api/v2/organizations/nope`, { headers: { authorization: `Bearer ${ADMIN}` } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/vnd.api+json');
    expect(await res.json()).toEqual({ errors: [{ status: '404', title: 'not found' }] });
  });
});

describe('mesh', () => {
  test('error bodies are plain text', async () => {
    const served = await ServedApi.start(new MeshEmulator({ managementToken: 'mgmt' }), { port: 0 });
    try {
      const c = await RawConnection.open(served.address);
      c.write('GET /v1/config/service-defaults/nope HTTP/1.1\r\nhost: x\r\nx-mesh-token: mgmt\r\n\r\n');
      const r = await c.response();
      expect(r.status).toBe(404);
      expect(r.body).toBe('Config entry not found for "service-defaults" / "nope"\n');
      c.destroy();
    } finally {
      await served.stop();
    }
  });
});
