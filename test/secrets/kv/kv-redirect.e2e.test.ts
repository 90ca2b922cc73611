import * as http from 'http';
import { AddressInfo } from 'net';
import { KvSecret } from '../../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, synthApp, TestWorld } from '../../support/harness';

// A secrets service that answers a KV read with a redirect (an OpenBao standby sends 307 to the
// active node; a proxy may send 301/302) did not say the key is absent: converge must not plan a
// create over a key that may exist, nor follow the redirect with the token. Issue 32, "also noticed".
describe('a KV read answered with a redirect', () => {
  let world: TestWorld;
  let proxy: http.Server;
  let status = 307;
  beforeAll(async () => {
    world = await startWorld();
    // The emulator behind a proxy that redirects every KV read and passes everything else on.
    proxy = http.createServer(async (req, res) => {
      if (req.method === 'GET' && /^\/v1\/secret\/(data|metadata)\//.test(req.url ?? '')) {
        res.writeHead(status, { location: `http://active.example.internal:8200${req.url}` }).end();
        return;
      }
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<string, string>;
      const r = await fetch(`${world.env.SECRETS_ADDR}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
      res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await r.arrayBuffer()));
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => { await world.stop(); await new Promise((r) => proxy.close(r)); });

  for (const s of [301, 302, 307, 308]) {
    test(`${s}: plan fails naming the redirect and where it points, and plans no create`, async () => {
      status = s;
      const app = synthApp((st) => { new KvSecret(st, 'kv', { path: 'redir/app', data: { a: '1' } }); }, `redirect-${s}`);
      const env = { ...world.env, SECRETS_ADDR: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` };
      const r = await cliAsync(['plan', '--synth-dir', app], env);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`${s}`);
      expect(r.stderr).toMatch(/redirect/);
      expect(r.stderr).toContain('http://active.example.internal:8200/v1/secret/');
      expect(r.stdout).not.toMatch(/will be created|\+ kv/);
      expect(r.stderr).not.toContain(world.env.SECRETS_TOKEN!);
    });
  }
});
