import { TerraformStack } from 'cdktf';
import { Emulator } from '../../lib/bundled-emulator/bundled-emulator';
import { MeshProtocol } from '../../lib/mesh/shared/mesh-types';
import { ServiceDefaults } from '../../lib/mesh/config-entry/service-defaults';
import { Organization } from '../../lib/platform/organization/organization';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';
import { allEndpoints, ApiName, authHeaders, Endpoint, fill, send } from './endpoints';

// Access: every endpoint of every API refuses a missing or wrong token (platform 401, and 404 for
// a valid token without access as its spec says; secrets 403; mesh 403 without service:read), and
// converge reports such a refusal as a permission problem naming the token variable to check.
jest.setTimeout(300_000);

describe('the emulator refuses a missing or wrong token on every endpoint', () => {
  let emulator: Emulator;
  let endpoints: Endpoint[];
  const ids: Record<string, string> = {};
  const stored = () => JSON.stringify([(emulator.apis.platform as any).snapshot(), (emulator.apis.mesh as any).snapshot(),
    [...(emulator.apis.secrets as any).mounts.values()].map((m: any) => m.engine.snapshot())]);

  beforeAll(async () => {
    emulator = await Emulator.start({ platformPort: 0, secretsPort: 0, meshPort: 0, platformRateLimit: 0 });
    endpoints = allEndpoints(emulator);
    // Objects the refused requests would otherwise reach.
    expect((await send(emulator, 'platform', 'POST', '/api/v2/organizations',
      JSON.stringify({ data: { type: 'organizations', attributes: { name: 'acc', email: 'a@acc.io' } } }))).status).toBe(201);
    const pool = await send(emulator, 'platform', 'POST', '/api/v2/organizations/acc/agent-pools',
      JSON.stringify({ data: { type: 'agent-pools', attributes: { name: 'acc' } } }));
    ids['agent-pools'] = JSON.parse(pool.text).data.id;
    expect((await send(emulator, 'secrets', 'POST', '/v1/secret/data/acc', JSON.stringify({ data: { a: '1' } }))).status).toBe(200);
    expect((await send(emulator, 'mesh', 'PUT', '/v1/config', JSON.stringify({ Kind: 'service-defaults', Name: 'acc', Protocol: 'http' }))).status).toBe(200);
  });
  afterAll(async () => { await emulator?.stop(); });

  /** Fills a template with the seeded object its segments name (`agent-pools/{}` -> the pool's id). */
  const filled = (t: string) => (t.startsWith('/v1/config/') ? fill(t, ['service-defaults', 'acc'])
    : t.replace(/([^/]+)\/\{\*?\}/g, (_m, seg: string) => `${seg}/${ids[seg] ?? 'acc'}`));
  /** LIST as `GET ?list=true`, the spec's equivalent: Node's HTTP server does not parse the LIST method. */
  const request = (api: ApiName, e: Endpoint, headers: Record<string, string>) => {
    const path = filled(e.template);
    const body = e.template === '/v1/config' ? JSON.stringify({ Kind: 'service-defaults', Name: 'acc', Protocol: 'tcp' })
      : ['POST', 'PUT', 'PATCH'].includes(e.method) ? '{}' : undefined;
    return e.method === 'LIST' ? send(emulator, api, 'GET', `${path}?list=true`, undefined, headers) : send(emulator, api, e.method, path, body, headers);
  };

  const expected: Record<ApiName, number> = { platform: 401, secrets: 403, mesh: 403 };
  const tokens: [string, (api: ApiName) => Record<string, string>][] = [
    ['no token', () => ({})],
    ['a wrong token', (api) => authHeaders(emulator, api, `wrong-${api}-token-0000000000000000`)],
  ];

  test.each(['platform', 'secrets', 'mesh'] as ApiName[])('%s: every endpoint, without a token and with a wrong one', async (api) => {
    const refusals: string[] = [];
    const before = stored();
    for (const e of endpoints.filter((x) => x.api === api)) {
      for (const [label, headers] of tokens) {
        const path = filled(e.template);
        // The mesh's ACL bootstrap answers 403 to everyone (test/mesh/emulator/acl-bootstrap.test.ts).
        if (api === 'mesh' && e.template === '/v1/acl/bootstrap' && label === 'no token') continue;
        const r = await request(api, e, headers(api));
        // A mesh list without a token is answered the way the mesh system does: filtered by the
        // ACLs, so empty (it shows nothing the caller may not read).
        const filteredList = api === 'mesh' && label === 'no token' && r.status === 200 && r.text.trim() === '[]';
        // The bare discovery-chain route exists only to answer "Missing chain name" (400), before any ACL check.
        const nameless = e.template === '/v1/discovery-chain' && r.status === 400;
        if (r.status !== expected[api] && !filteredList && !nameless) refusals.push(`${e.method} ${path} with ${label}: ${r.status} ${r.text.slice(0, 120)}`);
      }
    }
    expect(refusals).toEqual([]);
    expect(stored()).toBe(before);
  });

  test('platform: a valid token without access to the organization gets 404 on its objects', async () => {
    const admin = { authorization: `Bearer ${emulator.env.PLATFORM_TOKEN}` };
    const u = await send(emulator, 'platform', 'POST', '/__admin/users', JSON.stringify({ username: 'outsider', email: 'o@out.io' }), admin);
    expect(u.status).toBe(201);
    const t = await send(emulator, 'platform', 'POST', '/__admin/tokens', JSON.stringify({ user: 'outsider' }), admin);
    expect(t.status).toBe(201);
    const outsider = { authorization: `Bearer ${JSON.parse(t.text).token}` };
    const before = stored();
    const wrong: string[] = [];
    const scoped = endpoints.filter((e) => e.api === 'platform' && /\/(organizations|agent-pools)\/\{\}/.test(e.template));
    expect(scoped.length).toBeGreaterThan(5);
    for (const e of scoped) {
      const path = filled(e.template);
      const r = await request('platform', e, outsider);
      if (r.status !== 404) wrong.push(`${e.method} ${path}: ${r.status} ${r.text.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
    expect(stored()).toBe(before);
  });

  test('mesh: a valid token without service:read is refused with 403 on reads of the service', async () => {
    const mgmt = { 'x-mesh-token': emulator.env.MESH_HTTP_TOKEN };
    const t = await send(emulator, 'mesh', 'POST', '/__admin/tokens', JSON.stringify({ serviceRead: ['other'] }), mgmt);
    expect(t.status).toBe(200);
    const secret = JSON.parse(t.text).secretId;
    expect(typeof secret).toBe('string');
    for (const p of ['/v1/config/service-defaults/acc', '/v1/discovery-chain/acc']) {
      const r = await send(emulator, 'mesh', 'GET', p, undefined, { 'x-mesh-token': secret });
      expect({ p, status: r.status }).toEqual({ p, status: 403 });
    }
    const w = await send(emulator, 'mesh', 'PUT', '/v1/config', JSON.stringify({ Kind: 'service-defaults', Name: 'acc', Protocol: 'tcp' }),
      { 'x-mesh-token': secret });
    expect(w.status).toBe(403);
  });
});

describe('converge reports a refusal as a permission problem naming the token variable', () => {
  let world: TestWorld;
  let dir: string;
  beforeAll(async () => {
    world = await startWorld();
    dir = synthApp((stack: TerraformStack) => {
      new Organization(stack, 'org', { name: 'access-org', email: 'a@access.io' });
      new KvSecret(stack, 'kv', { path: 'access/app', data: { a: '1' } });
      new ServiceDefaults(stack, 'svc', { name: 'access-svc', protocol: MeshProtocol.HTTP });
    }, 'access');
  });
  afterAll(async () => { await world?.stop(); });

  test.each([
    ['PLATFORM_TOKEN', 'platform'],
    ['SECRETS_TOKEN', 'secrets'],
    ['MESH_HTTP_TOKEN', 'mesh'],
  ])('a wrong %s: plan and apply exit 1, name the variable, print no token', async (variable) => {
    const wrong = `wrong-token-${variable.toLowerCase()}-5a9c31e0`;
    const env = { ...world.env, [variable]: wrong };
    for (const args of [['plan', '--synth-dir', dir], ['apply', '--synth-dir', dir, '--auto-approve']]) {
      const r = await cliAsync(args, env);
      const out = r.stdout + r.stderr;
      expect({ args, status: r.status }).toEqual({ args, status: 1 });
      expect(r.stderr).toMatch(/permission/i);
      expect(r.stderr).toContain(variable);
      for (const token of [wrong, world.env.PLATFORM_TOKEN!, world.env.SECRETS_TOKEN!, world.env.MESH_HTTP_TOKEN!]) {
        expect(out).not.toContain(token);
      }
    }
    // Nothing was written on any API.
    const kv = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/access/app`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    expect(kv.status).toBe(404);
  });
});
