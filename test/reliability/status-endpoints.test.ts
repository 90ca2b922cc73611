import { Emulator } from '../../lib/bundled-emulator/bundled-emulator';

// The endpoints real clients call first (and converge's address check): platform ping, secrets
// health, mesh leader, each answered without a token as the real services answer them; and an
// unmounted secrets path told apart from a missing key.
describe('status endpoints of the emulator', () => {
  let emu: Emulator;
  beforeAll(async () => { emu = await Emulator.start({ platformPort: 0, secretsPort: 0, meshPort: 0 }); });
  afterAll(async () => { await emu.stop(); });

  test('platform GET /api/v2/ping: 204 with the rate-limit and API version headers, token or not', async () => {
    const variants: Record<string, string>[] = [{}, { authorization: `Bearer ${emu.env.PLATFORM_TOKEN}` }];
    for (const headers of variants) {
      const r = await fetch(`${emu.env.PLATFORM_ADDRESS}/api/v2/ping`, { headers });
      expect(r.status).toBe(204);
      expect(r.headers.get('x-ratelimit-limit')).toBe('30');
      expect(r.headers.get('tfp-api-version')).toBe('2.5');
      expect(await r.text()).toBe('');
    }
  });

  test('secrets GET /v1/sys/health: 200 with the health document, no token needed', async () => {
    const r = await fetch(`${emu.env.SECRETS_ADDR}/v1/sys/health`);
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ initialized: true, sealed: false, standby: false, version: expect.stringMatching(/^1\.13\./) });
  });

  test('secrets: an unmounted path answers "no handler for route", a missing key answers {"errors":[]}', async () => {
    const headers = { 'x-secrets-token': emu.env.SECRETS_TOKEN! };
    const unmounted = await fetch(`${emu.env.SECRETS_ADDR}/v1/nomount/data/x`, { headers });
    expect(unmounted.status).toBe(404);
    expect(await unmounted.json()).toEqual({ errors: ['no handler for route "nomount/data/x". route entry not found.'] });
    const missing = await fetch(`${emu.env.SECRETS_ADDR}/v1/secret/data/missing`, { headers });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ errors: [] });
  });

  test('mesh GET /v1/status/leader: the leader address as a JSON string, no token needed', async () => {
    const r = await fetch(`${emu.env.MESH_HTTP_ADDR}/v1/status/leader`);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('"127.0.0.1:8300"');
  });
});
