import * as http from 'http';
import { AddressInfo } from 'net';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { SecretsProvider } from '../../lib/secrets/provider';
import { SecretsTokenHeader } from '../../lib/secrets/token-header';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// A real OpenBao reads the token from X-Vault-Token or Authorization: Bearer, never from the spec's
// X-Secrets-Token, and answers a request whose token it cannot see with 403 "permission denied".
// One setting (SECRETS_TOKEN_HEADER, or the provider's tokenHeader) reaches it without a proxy.
describe('the secrets token header', () => {
  let world: TestWorld;
  let openbaoLike: http.Server;
  let openbaoAddr: string;
  const seenHeaders: string[][] = [];

  beforeAll(async () => {
    world = await startWorld();
    // In front of the emulator: forwards everything but X-Secrets-Token, as a real OpenBao ignores it.
    const target = new URL(world.env.SECRETS_ADDR!);
    openbaoLike = http.createServer((req, res) => {
      const headers: http.OutgoingHttpHeaders = { ...req.headers, host: target.host };
      delete headers['x-secrets-token'];
      seenHeaders.push(Object.keys(req.headers).filter((h) => ['x-secrets-token', 'x-vault-token', 'authorization'].includes(h)));
      const up = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (u) => {
        res.writeHead(u.statusCode ?? 502, u.headers);
        u.pipe(res);
      });
      req.pipe(up);
    });
    await new Promise<void>((r) => openbaoLike.listen(0, '127.0.0.1', r));
    openbaoAddr = `http://127.0.0.1:${(openbaoLike.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    openbaoLike.closeAllConnections();
    await new Promise((r) => openbaoLike.close(r));
    await world.stop();
  });

  const kvApp = (name: string, tokenHeader?: SecretsTokenHeader) => synthApp((stack) => {
    const provider = tokenHeader ? new SecretsProvider(stack, 'secrets', { tokenHeader }) : undefined;
    new KvSecret(stack, 'kv', { path: `header/${name}`, data: { a: '1' }, provider });
  }, name);

  test('the emulator accepts the token in X-Secrets-Token, X-Vault-Token and Authorization: Bearer, as the real service', async () => {
    const t = world.env.SECRETS_TOKEN!;
    for (const headers of [{ 'x-secrets-token': t }, { 'x-vault-token': t }, { authorization: `Bearer ${t}` }] as Record<string, string>[]) {
      const res = await fetch(`${world.env.SECRETS_ADDR}/v1/auth/token/lookup-self`, { headers });
      expect(res.status).toBe(200);
    }
    expect((await fetch(`${world.env.SECRETS_ADDR}/v1/secret/config`)).status).toBe(403);
    expect((await fetch(`${world.env.SECRETS_ADDR}/v1/secret/config`, { headers: { authorization: 'Basic abc' } })).status).toBe(403);
  });

  test('to a server that does not read X-Secrets-Token, the 403 says the header may be the cause, naming the setting', async () => {
    const r = await cliAsync(['apply', '--synth-dir', kvApp('default'), '--auto-approve'], { ...world.env, SECRETS_ADDR: openbaoAddr });
    expect(r.status).toBe(1);
    const out = r.stdout + r.stderr;
    expect(out).toContain('permission denied');
    expect(out).toContain('converge sent X-Secrets-Token');
    expect(out).toContain('SECRETS_TOKEN_HEADER');
    expect(out).toContain("provider's tokenHeader");
    expect(out).not.toContain(world.env.SECRETS_TOKEN!);
  });

  test('SECRETS_TOKEN_HEADER=X-Vault-Token reaches it: plan, apply, no-op plan', async () => {
    const env = { ...world.env, SECRETS_ADDR: openbaoAddr, SECRETS_TOKEN_HEADER: 'X-Vault-Token' };
    const dir = kvApp('vault');
    seenHeaders.length = 0;
    const a = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], env);
    expect(a.stderr).toBe('');
    expect(a.status).toBe(0);
    expect((await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], env)).status).toBe(0);
    expect(seenHeaders.length).toBeGreaterThan(0);
    expect(seenHeaders.every((h) => h.length === 1 && h[0] === 'x-vault-token')).toBe(true);
  });

  test("the provider's tokenHeader (Authorization: Bearer) reaches it, over the variable", async () => {
    const env = { ...world.env, SECRETS_ADDR: openbaoAddr, SECRETS_TOKEN_HEADER: 'X-Secrets-Token' };
    seenHeaders.length = 0;
    const a = await cliAsync(['apply', '--synth-dir', kvApp('bearer', SecretsTokenHeader.AUTHORIZATION_BEARER), '--auto-approve'], env);
    expect(a.stderr).toBe('');
    expect(a.status).toBe(0);
    expect(seenHeaders.every((h) => h.length === 1 && h[0] === 'authorization')).toBe(true);
  });

  test('an unknown header name is refused, naming the variable and the choices, before any request', async () => {
    seenHeaders.length = 0;
    const r = await cliAsync(['plan', '--synth-dir', kvApp('bad')], { ...world.env, SECRETS_ADDR: openbaoAddr, SECRETS_TOKEN_HEADER: 'X-Token' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('SECRETS_TOKEN_HEADER is "X-Token"');
    expect(r.stderr).toContain('X-Vault-Token');
    expect(seenHeaders).toEqual([]);
  });

  test('an unknown tokenHeader is refused at synth, naming the construct path', () => {
    expect(() => synthApp((stack) => {
      new SecretsProvider(stack, 'secrets', { tokenHeader: 'X-Token' as SecretsTokenHeader });
    }, 'badprop')).toThrow(/badprop\/secrets: tokenHeader is "X-Token"/);
  });

  test('a token the server accepts but whose policy lacks the capability: the policy hint only', async () => {
    const admin = { 'x-secrets-token': world.env.SECRETS_TOKEN!, 'content-type': 'application/json' };
    await fetch(`${world.env.SECRETS_ADDR}/v1/sys/policies/acl/read-only`, {
      method: 'PUT', headers: admin, body: JSON.stringify({ policy: 'path "secret/metadata/*" { capabilities = ["read"] }' }),
    });
    const created = await (await fetch(`${world.env.SECRETS_ADDR}/v1/auth/token/create`, {
      method: 'POST', headers: admin, body: JSON.stringify({ policies: ['read-only'] }),
    })).json() as { auth: { client_token: string } };
    // Past the preflight (which would name every missing capability first): the 403 itself.
    const r = await cliAsync(['apply', '--synth-dir', kvApp('weak'), '--auto-approve', '--no-preflight'], { ...world.env, SECRETS_TOKEN: created.auth.client_token });
    expect(r.status).toBe(1);
    expect(r.stdout + r.stderr).toContain('the token needs "create" or "update" on "secret/data/header/weak"');
    expect(r.stdout + r.stderr).not.toContain('SECRETS_TOKEN_HEADER');
  });
});
