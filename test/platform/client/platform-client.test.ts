import { ServedApi } from '../../../lib/core/emulator-kit/server';
import { ApiEmulator, EmuRequest, EmuResponse } from '../../../lib/core/emulator-kit/types';
import { ApiError } from '../../../lib/core/http/api-error';
import { documentToPlain, toDocument } from '../../../lib/platform/client/jsonapi';
import { PlatformClient } from '../../../lib/platform/client/platform-client';
import { PlatformEmulator } from '../../../lib/platform/emulator/platform-emulator';
import { FakeClock, ManualClock } from '../../support/fake-clock';
import { ADMIN_TOKEN, PlatformFixture } from '../helpers';

let fx: PlatformFixture;
let client: PlatformClient;
beforeAll(async () => {
  fx = await PlatformFixture.start();
  client = PlatformClient.create({ address: fx.address, token: ADMIN_TOKEN, rateLimit: 0 });
});
afterAll(async () => {
  await client.close();
  await fx.stop();
});

describe('organizations', () => {
  test('create resolves the included entitlement set; show; 404 is undefined', async () => {
    const org = await client.organizations.create({ name: 'cl-acme', email: 'ops@acme.io', sessionTimeout: 90 });
    expect(org).toMatchObject({ id: 'cl-acme', type: 'organizations', name: 'cl-acme', sessionTimeout: 90, sessionRemember: 20160 });
    expect(org.externalId).toMatch(/^org-/);
    expect(org.entitlementSet).toMatchObject({ id: org.externalId, type: 'entitlement-sets', agents: true, userLimit: null });
    expect(org.permissions.canUpdate).toBe(true);
    expect(org.defaultAgentPool).toBeNull();
    expect(org.relationshipLinks.oauthTokens.related).toBe('/api/v2/organizations/cl-acme/oauth-tokens');
    const shown = await client.organizations.show('cl-acme');
    expect(shown?.entitlementSet).toEqual({ id: org.externalId, type: 'entitlement-sets' });
    expect(await client.organizations.show('cl-missing')).toBeUndefined();
  });

  test('update renames (the id changes), destroy answers whether it existed', async () => {
    await client.organizations.create({ name: 'cl-old', email: 'a@b.io' });
    const renamed = await client.organizations.update('cl-old', { name: 'cl-new', costEstimationEnabled: true });
    expect(renamed).toMatchObject({ id: 'cl-new', costEstimationEnabled: true });
    expect(await client.organizations.show('cl-old')).toBeUndefined();
    expect(await client.organizations.destroy('cl-new')).toBe(true);
    expect(await client.organizations.destroy('cl-new')).toBe(false);
  });

  test('entitlement set; undefined for an unknown organization', async () => {
    await client.organizations.create({ name: 'cl-ent', email: 'a@b.io' });
    const set = await client.organizations.entitlementSet('cl-ent');
    expect(set).toMatchObject({ type: 'entitlement-sets', auditLogging: true, policySetLimit: null });
    expect(await client.organizations.entitlementSet('cl-nope')).toBeUndefined();
  });

  test('a 422 keeps the status and the JSON:API title and detail', async () => {
    const err = await client.organizations.create({ name: 'bad name', email: 'a@b.io' }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(422);
    expect(err.apiMessages[0]).toMatch(/invalid attribute: Name can only contain letters/);
    expect(err.message).not.toContain(ADMIN_TOKEN);
  });

  test('an invalid token is a 401 error without the token in the message', async () => {
    const bad = PlatformClient.create({ address: `${fx.address}/`, token: 'secret-wrong-token', rateLimit: 0 });
    const err = await bad.organizations.list().catch((e) => e);
    await bad.close();
    expect(err.status).toBe(401);
    expect(err.message).not.toContain('secret-wrong-token');
  });
});

test('an address ending in /api/v2 is refused, with the words of the CLI\'s address check (issue 33)', () => {
  expect(() => PlatformClient.create({ address: `${fx.address}/api/v2/`, token: 't' }))
    .toThrow(`the platform address "${fx.address}/api/v2" ends in "/api/v2": give the address without "/api/v2" (converge adds it)`);
});

describe('pagination', () => {
  beforeAll(async () => {
    for (let i = 0; i < 23; i++) await client.organizations.create({ name: `pg-${String(i).padStart(2, '0')}`, email: `p${i}@pg.io` });
  });

  test('the iterator walks every page with the page size asked (capped at 100)', async () => {
    const seen: string[] = [];
    for await (const o of client.organizations.iterate({ name: 'pg-' }, 5)) seen.push(o.id);
    expect(seen).toHaveLength(23);
    expect(new Set(seen).size).toBe(23);
    const all: string[] = [];
    for await (const o of client.organizations.iterate({ name: 'pg-' }, 1000)) all.push(o.id);
    expect(all).toEqual(seen);
  });

  test('one page with its meta, and the unpaginated form', async () => {
    const page = await client.organizations.list({ name: 'pg-' }, { number: 2, size: 10 });
    expect(page.items.map((o) => o.id)[0]).toBe('pg-10');
    expect(page.pagination).toMatchObject({ 'current-page': 2, 'page-size': 10, 'total-count': 23, 'next-page': 3 });
    const unpaged = await client.organizations.list({ name: 'pg-' });
    expect(unpaged.items).toHaveLength(23);
    expect(unpaged.pagination).toBeUndefined();
  });
});

describe('JSON:API conversion', () => {
  test('toDocument kebab-cases attributes and wraps relationships', () => {
    expect(toDocument('organizations', { sessionTimeout: 5, email: undefined }, { defaultAgentPool: { id: 'apool-1', type: 'agent-pools' } }))
      .toEqual({ data: { type: 'organizations', attributes: { 'session-timeout': 5 }, relationships: { 'default-agent-pool': { data: { id: 'apool-1', type: 'agent-pools' } } } } });
    expect(documentToPlain({ data: null })).toEqual([]);
  });
});

/** The platform emulator, recording when (on `clock`) each request arrived. */
class Arrivals implements ApiEmulator {
  public readonly name = 'platform';
  public readonly times: number[] = [];
  constructor(public readonly inner: PlatformEmulator, protected readonly clock: { now(): number }) {}
  public handle(req: EmuRequest): EmuResponse {
    this.times.push(this.clock.now());
    return this.inner.handle(req);
  }
  public mutates(req: EmuRequest): boolean { return this.inner.mutates(req); }
  public snapshot(): unknown { return this.inner.snapshot(); }
  public restore(d: unknown): void { this.inner.restore(d); }
}

/** Answers the first request of each path with a 429 and `Retry-After`, then hands over to the platform emulator. */
class RetryAfterOnce extends Arrivals {
  public refused = 0;
  private readonly seen = new Set<string>();
  public handle(req: EmuRequest): EmuResponse {
    if (!this.seen.has(req.path)) {
      this.times.push(this.clock.now());
      this.seen.add(req.path);
      this.refused++;
      return { status: 429, headers: { 'Retry-After': '0.2' }, contentType: 'application/vnd.api+json',
        body: { errors: [{ status: 429, title: 'Too many requests', detail: 'You have exceeded the API\'s rate limit.' }] } };
    }
    return super.handle(req);
  }
}

describe('rate limiting', () => {
  test('a 429 with Retry-After is retried after the wait, also for a POST', async () => {
    const clock = new FakeClock();
    const api = new RetryAfterOnce(new PlatformEmulator({ adminToken: ADMIN_TOKEN, rateLimit: 0 }), clock);
    const served = await ServedApi.start(api, { port: 0 });
    const c = PlatformClient.create({ address: served.address, token: ADMIN_TOKEN, clock });
    try {
      const org = await c.organizations.create({ name: 'ra', email: 'a@b.io' });
      expect(org.id).toBe('ra');
      expect(api.refused).toBe(1);
      expect(c.http.stats.retries).toBe(1);
      // The client waited the 0.2 s asked for, and only then sent the POST again.
      expect(clock.sleeps).toEqual([200]);
      expect(api.times[1] - api.times[0]).toBe(200);
      expect(await c.organizations.show('ra')).toBeDefined();
      expect(api.refused).toBe(2);
      expect(clock.sleeps).toEqual([200, 200]);
    } finally {
      await c.close();
      await served.stop();
    }
  });

  test('the server limit (429 with X-RateLimit-Reset) is honoured: a burst completes with every answer 2xx', async () => {
    // One fake clock for the emulator's limit and the client's waits: the client's sleeps move the
    // time the emulator refills its bucket by, and nothing else does.
    const clock = new FakeClock();
    const limited = await PlatformFixture.start({ rateLimit: 4, clock });
    const c = PlatformClient.create({ address: limited.address, token: ADMIN_TOKEN, rateLimit: 0, retries: 10, clock });
    try {
      const results = await Promise.all(Array.from({ length: 12 }, () => c.organizations.list()));
      expect(results.every((r) => Array.isArray(r.items))).toBe(true);
      // The fifth request finds the bucket empty: the clock has not moved since the first.
      expect(limited.emulator.rateLimited).toBeGreaterThan(0);
      expect(c.http.stats.retries).toBe(limited.emulator.rateLimited);
      // Each retry waited what X-RateLimit-Reset said (a quarter second for an empty bucket of 4).
      expect(clock.sleeps.length).toBeGreaterThanOrEqual(1);
      expect(clock.sleeps.every((ms) => ms > 0 && ms <= 250)).toBe(true);
    } finally {
      await c.close();
      await limited.stop();
    }
  });

  test('with the default client limit (30/s) a burst beyond the platform limit completes', async () => {
    // One clock for both sides, moved only once every request let go has arrived: the platform
    // sees each request at the time the client's limiter let it go.
    const clock = new ManualClock();
    const api = new Arrivals(new PlatformEmulator({ adminToken: ADMIN_TOKEN, rateLimit: 30, clock }), clock);
    const served = await ServedApi.start(api, { port: 0 });
    const c = PlatformClient.create({ address: served.address, token: ADMIN_TOKEN, clock });
    try {
      const burst = Promise.all(Array.from({ length: 45 }, () => c.organizations.list()));
      const results = await clock.drive(burst, () => api.times.length === c.http.stats.requests);
      expect(results).toHaveLength(45);
      // The client's own limiter keeps every request under the platform's limit: a burst of 30,
      // then one request each 1/30 s of the clock the platform counts by too.
      expect(api.inner.rateLimited).toBe(0);
      expect(c.http.stats.retries).toBe(0);
      const start = api.times[0];
      expect(api.times.slice(0, 30).every((t) => t === start)).toBe(true);
      expect(api.times[44] - start).toBeGreaterThanOrEqual(500);
      for (let i = 31; i < 45; i++) expect(api.times[i] - api.times[i - 1]).toBeGreaterThanOrEqual(33);
    } finally {
      await c.close();
      await served.stop();
    }
  });
});
