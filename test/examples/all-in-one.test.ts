import * as path from 'path';
import { allFiles, cliAsync, ROOT, startWorld, TestWorld } from '../support/harness';


// examples/all-in-one run as a user would: the real CLI (dist/) in the example's directory, against the emulator's
// three APIs in one stack.
describe('examples/all-in-one', () => {
  const dir = path.join(ROOT, 'examples', 'all-in-one');
  const apiKey = 'shop-payments-key-41b7e0';
  let world: TestWorld;
  beforeAll(async () => {
    world = await startWorld();
    // The secrets service mints mesh tokens with the mesh's management token (the emulator's).
    Object.assign(world.env, { SHOP_PAYMENTS_API_KEY: apiKey, SHOP_MESH_MANAGEMENT_TOKEN: world.env.MESH_HTTP_TOKEN,
      CONVERGE_SYNTH_ENV: 'SHOP_ORG,SHOP_MESH_ADDRESS,MESH_HTTP_ADDR' });
  });
  afterAll(async () => { await world.stop(); });

  const get = async (base: string | undefined, p: string, headers: Record<string, string>) => {
    const r = await fetch(`${base}${p}`, { headers });
    const text = await r.text();
    return { status: r.status, body: r.status === 200 && text ? JSON.parse(text) : text };
  };
  const platformGet = (p: string) => get(world.env.PLATFORM_ADDRESS, `/api/v2/${p}`, { authorization: `Bearer ${world.env.PLATFORM_TOKEN}` });
  const secretsGet = (p: string) => get(world.env.SECRETS_ADDR, `/v1/${p}`, { 'x-secrets-token': world.env.SECRETS_TOKEN! });
  const meshGet = (p: string, token = world.env.MESH_HTTP_TOKEN!) => get(world.env.MESH_HTTP_ADDR, `/v1/${p}`, { 'x-mesh-token': token });
  const run = (...args: string[]) => cliAsync(args, world.env, dir);

  test('plan, apply, no-op plan, destroy', async () => {
    let r = await run('plan', '--detailed-exitcode');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/Plan: 8 to add, 0 to change, 0 to replace, 0 to destroy/);

    r = await run('apply', '--auto-approve');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((await platformGet('organizations/shop-team')).body.data.attributes.email).toBe('shop-team@acme.example');
    const kv = await secretsGet('secret/data/shop-team/checkout');
    expect(kv.body.data.data).toEqual({ paymentsApiKey: apiKey, currency: 'EUR' });
    expect((await secretsGet('mesh/roles/checkout')).body.data).toMatchObject({ service_identities: ['checkout:dc1'] });
    // The role works end to end: a token minted through the secrets service may read checkout on the mesh, nothing else.
    const creds = await secretsGet('mesh/creds/checkout');
    expect(creds.status).toBe(200);
    expect((await meshGet('discovery-chain/checkout', creds.body.data.token)).status).toBe(200);
    expect((await meshGet('config/service-defaults/payments', creds.body.data.token)).status).toBe(403);
    expect((await meshGet('config/service-router/checkout')).body.Routes[0].Destination).toMatchObject({ Service: 'payments', NumRetries: 3 });
    expect((await meshGet('config/service-defaults/payments')).body.Protocol).toBe('http');

    r = await run('plan', '--detailed-exitcode');
    expect(r.stdout).toMatch(/No changes/);
    expect(r.status).toBe(0);
    for (const f of allFiles(world.dir)) {
      expect([f.file, f.text.includes(apiKey) || f.text.includes(world.env.MESH_HTTP_TOKEN!)]).toEqual([f.file, false]);
    }

    r = await run('destroy', '--auto-approve');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((await secretsGet('secret/data/shop-team/checkout')).status).toBe(404);
    expect((await secretsGet('mesh/roles/checkout')).status).toBe(404);
    for (const p of ['service-defaults/checkout', 'service-defaults/payments', 'service-resolver/payments', 'service-router/checkout']) {
      expect([p, (await meshGet(`config/${p}`)).status]).toEqual([p, 404]);
    }
    // Retained: the organization stays (only forgotten); the mesh access configuration has no delete.
    expect((await platformGet('organizations/shop-team')).status).toBe(200);
  });
});
