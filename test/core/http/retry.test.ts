import { Emulator } from '../../../lib/bundled-emulator/bundled-emulator';
import { ApiError } from '../../../lib/core/http/api-error';
import { HttpClient } from '../../../lib/core/http/http-client';
import { countingProxy, CountingProxy, ProxyAnswer } from '../../support/counting-proxy';

// Only what can succeed on retry is retried; counted in requests, never timed.
describe('retries', () => {
  let emu: Emulator;
  let proxy: CountingProxy | undefined;
  beforeAll(async () => { emu = await Emulator.start({ platformPort: 0, secretsPort: 0, meshPort: 0 }); });
  afterAll(async () => { await emu.stop(); });
  afterEach(async () => { await proxy?.close(); proxy = undefined; });

  const client = (api: string, baseUrl: string, extra: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) =>
    new HttpClient({ api, baseUrl, authHeaders: { 'x-mesh-token': emu.env.MESH_HTTP_TOKEN! }, retries: 5, backoffBaseMs: 1, ...extra });
  const answering = async (answer: (n: number) => ProxyAnswer) => {
    let n = 0;
    proxy = await countingProxy('http://127.0.0.1:1', () => answer(n++));
    return proxy;
  };

  test('a mesh chain compile error (a deterministic 500) is sent once', async () => {
    const c = client('mesh', emu.env.MESH_HTTP_ADDR!);
    await c.request({ method: 'PUT', path: '/v1/config', body: { Kind: 'service-defaults', Name: 'web', Protocol: 'tcp' } });
    const before = c.stats.requests;
    const e = await c.request({
      method: 'PUT', path: '/v1/config',
      body: { Kind: 'service-router', Name: 'web', Routes: [{ Match: { HTTP: { PathPrefix: '/a' } }, Destination: { Service: 'api' } }] },
    }).catch((x) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(500);
    expect(e.message).toMatch(/does not permit advanced routing or splitting behavior/);
    expect(e.retryable).toBe(false);
    expect(c.stats.requests - before).toBe(1);
    expect(c.stats.retries).toBe(0);
    await c.close();
  });

  test('a mesh 500 that names a passing condition is retried', async () => {
    const p = await answering((n) => (n < 2 ? { status: 500, body: 'No cluster leader' } : { status: 200, body: '"ok"' }));
    const c = client('mesh', p.url);
    expect((await c.request({ method: 'GET', path: '/v1/x' })).body).toBe('ok');
    expect(p.seen).toHaveLength(3);
    await c.close();
  });

  test('secrets: a role outside allowed_roles is not retried, another 500 is', async () => {
    const p = await answering((n) => (n === 0 ? { status: 500, body: '{"errors":["\\"ro\\" is not an allowed role"]}' }
      : n === 1 ? { status: 500, body: '{"errors":["internal error"]}' } : { status: 200, body: '{}' }));
    const c = client('secrets', p.url);
    await expect(c.request({ method: 'GET', path: '/v1/database/creds/ro' })).rejects.toThrow(/is not an allowed role/);
    expect(p.seen).toHaveLength(1);
    await c.request({ method: 'GET', path: '/v1/other' });
    expect(p.seen).toHaveLength(3);
    await c.close();
  });

  test('Retry-After beyond the cap fails at once, naming the wait the server asked for', async () => {
    const p = await answering(() => ({ status: 429, headers: { 'retry-after': '120' }, body: '{"errors":[{"status":429,"title":"Too many requests"}]}' }));
    const c = client('platform', p.url, { maxRetryAfterMs: 60_000 });
    const e = await c.request({ method: 'GET', path: '/api/v2/organizations' }).catch((x) => x);
    expect(e.message).toMatch(/the server asked to wait 120 s before a retry, more than the 60 s converge waits \(CONVERGE_MAX_RETRY_AFTER_S\)/);
    expect(e.exhausted).toBe(true);
    expect(p.seen).toHaveLength(1);
    await c.close();
  });

  test('Retry-After within the cap is obeyed', async () => {
    const p = await answering((n) => (n === 0 ? { status: 429, headers: { 'retry-after': '0' } } : { status: 200, body: '{}' }));
    const c = client('platform', p.url);
    await c.request({ method: 'POST', path: '/api/v2/organizations', body: {} });
    expect(p.seen).toHaveLength(2);
    await c.close();
  });
});
