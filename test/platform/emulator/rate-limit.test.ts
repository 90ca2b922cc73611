import { PlatformEmulator } from '../../../lib/platform/emulator/platform-emulator';
import { FakeClock } from '../../support/fake-clock';
import { ADMIN_TOKEN, orgDoc, PlatformFixture } from '../helpers';

// The emulator's clock is a fake one that only moves when a test moves it: how many requests
// a bucket admits is exact, however long the requests take.
describe('rate limit headers and enforcement', () => {
  let fx: PlatformFixture;
  const clock = new FakeClock();
  beforeAll(async () => { fx = await PlatformFixture.start({ rateLimit: 5, clock }); });
  afterAll(async () => { await fx.stop(); });

  test('every answer carries X-RateLimit-Limit and a fractional X-RateLimit-Reset, errors included', async () => {
    for (const res of [await fx.api('GET', '/organizations'), await fx.api('GET', '/organizations/none'), await fx.api('GET', '/organizations', undefined, null)]) {
      expect(res.headers['x-ratelimit-limit']).toBe('5');
      expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(0);
      expect(Number(res.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(1);
    }
  });

  test('over the limit per user: 429 with the number status error; shared by every token of the user', async () => {
    const a = await fx.seedToken('busy');
    const b = (await fx.call('POST', '/__admin/tokens', { user: 'busy', kind: 'user' })).body.token;
    const answers = await Promise.all(Array.from({ length: 12 }, (_x, i) => fx.api('GET', '/organizations', undefined, i % 2 ? a : b)));
    const limited = answers.filter((r) => r.status === 429);
    // A full bucket of 5, shared by both tokens; nothing refills while the clock stands still.
    expect(limited).toHaveLength(7);
    expect(Number(limited[0].headers['x-ratelimit-reset'])).toBe(0.2);
    expect(limited[0].body).toEqual({ errors: [{ status: 429, title: 'Too many requests', detail: 'You have exceeded the API\'s rate limit.' }] });
    expect(limited[0].headers['content-type']).toContain('application/vnd.api+json');
    expect(limited[0].headers['x-ratelimit-limit']).toBe('5');
    // Another user is not limited by this one.
    expect((await fx.api('GET', '/organizations', undefined, ADMIN_TOKEN)).status).toBe(200);
    // 200 ms later the bucket holds one request again.
    clock.advance(199);
    expect((await fx.api('GET', '/organizations', undefined, a)).status).toBe(429);
    clock.advance(1);
    expect((await fx.api('GET', '/organizations', undefined, b)).status).toBe(200);
    expect((await fx.api('GET', '/organizations', undefined, a)).status).toBe(429);
  });

  test('rateLimit 0 disables enforcement; the published limit 30 is still announced', async () => {
    const free = await PlatformFixture.start({ rateLimit: 0 });
    try {
      const answers = await Promise.all(Array.from({ length: 60 }, () => free.api('GET', '/organizations')));
      expect(answers.every((r) => r.status === 200)).toBe(true);
      expect(answers[0].headers['x-ratelimit-limit']).toBe('30');
    } finally {
      await free.stop();
    }
  });

  test('the default limit is 30 per second', () => {
    const still = new FakeClock();
    const emu = new PlatformEmulator({ adminToken: 't', clock: still });
    const req = { method: 'GET', path: '/api/v2/organizations', rawPath: '/api/v2/organizations', query: new URLSearchParams(), headers: { authorization: 'Bearer t' }, body: Buffer.alloc(0) };
    const statuses = Array.from({ length: 31 }, () => emu.handle(req).status);
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
    still.advance(1000);
    expect(Array.from({ length: 31 }, () => emu.handle(req).status).filter((s) => s === 429)).toHaveLength(1);
  });
});

describe('snapshot and restore', () => {
  test('state survives a restore; tokens are not in the snapshot in clear', async () => {
    const fx = await PlatformFixture.start();
    try {
      await fx.createOrg('kept');
      const token = await fx.seedToken('snap-user');
      const snap = fx.emulator.snapshot();
      expect(JSON.stringify(snap)).not.toContain(token);
      expect(JSON.stringify(snap)).not.toContain(ADMIN_TOKEN);
      const again = await PlatformFixture.start();
      again.emulator.restore(JSON.parse(JSON.stringify(snap)));
      expect((await again.api('GET', '/organizations/kept')).status).toBe(200);
      expect((await again.api('GET', '/organizations', undefined, token)).status).toBe(200);
      expect((await again.api('PATCH', '/organizations/kept', orgDoc({ email: 'k@kept.io' }))).status).toBe(200);
      await again.stop();
    } finally {
      await fx.stop();
    }
  });
});
