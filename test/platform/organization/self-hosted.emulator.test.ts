import { admin, PlatformFixture } from '../helpers';

describe('self-hosted edition', () => {
  let fx: PlatformFixture;
  beforeAll(async () => {
    fx = await PlatformFixture.start({ edition: 'self-hosted' });
    await fx.createOrg('sh');
    for (const n of ['prod-b', 'prod-a', 'prod-c']) {
      await fx.createOrg(n);
      await admin(fx, 'POST', '/organizations/sh/module-producers', { producer: n });
    }
  });
  afterAll(async () => { await fx.stop(); });

  test('module producers: organizations with name, external-id and links.self, paginated', async () => {
    const res = await fx.api('GET', '/organizations/sh/relationships/module-producers');
    expect(res.status).toBe(200);
    expect(res.body.data.map((o: any) => o.id)).toEqual(['prod-a', 'prod-b', 'prod-c']);
    expect(res.body.data[0]).toEqual({
      id: 'prod-a', type: 'organizations', attributes: { name: 'prod-a', 'external-id': expect.stringMatching(/^org-/) },
      links: { self: '/api/v2/organizations/prod-a' },
    });
    expect(res.body.meta.pagination).toMatchObject({ 'current-page': 1, 'total-count': 3 });
    const p2 = await fx.api('GET', '/organizations/sh/relationships/module-producers?page[number]=2&page[size]=2');
    expect(p2.body.data.map((o: any) => o.id)).toEqual(['prod-c']);
    expect((await fx.api('GET', '/organizations/none/relationships/module-producers')).status).toBe(404);
  });

  test('data retention policy: the installation default, set (201), replace, delete (204) back to the default', async () => {
    const path = '/organizations/sh/relationships/data-retention-policy';
    const initial = await fx.api('GET', path);
    expect(initial.status).toBe(200);
    expect(initial.body.data).toEqual({ id: 'drp-installation', type: 'data-retention-policy-dont-deletes', attributes: {} });
    const set = await fx.api('POST', path, { data: { type: 'data-retention-policy-delete-olders', attributes: { 'delete-older-than-n-days': 30 } } });
    expect(set.status).toBe(201);
    expect(set.body.data).toMatchObject({ type: 'data-retention-policy-delete-olders', attributes: { 'delete-older-than-n-days': 30 } });
    expect(set.body.data.id).toMatch(/^drp-/);
    expect((await fx.api('GET', path)).body.data).toEqual(set.body.data);
    const dont = await fx.api('POST', path, { data: { type: 'data-retention-policy-dont-deletes' } });
    expect(dont.body.data).toMatchObject({ type: 'data-retention-policy-dont-deletes', attributes: {} });
    expect((await fx.api('POST', path, { data: { type: 'data-retention-policy-delete-olders', attributes: { 'delete-older-than-n-days': 0 } } })).status).toBe(422);
    expect((await fx.api('POST', path, { data: { type: 'data-retention-policies' } })).status).toBe(422);
    await admin(fx, 'PUT', '/data-retention-policy', { type: 'data-retention-policy-delete-olders', deleteOlderThanNDays: 90 });
    const del = await fx.api('DELETE', path);
    expect(del.status).toBe(204);
    expect((await fx.api('GET', path)).body.data).toEqual({ id: 'drp-installation', type: 'data-retention-policy-delete-olders', attributes: { 'delete-older-than-n-days': 90 } });
    expect((await fx.api('GET', '/organizations/none/relationships/data-retention-policy')).status).toBe(404);
  });
});

test('hosted edition: module producers and the data retention policy answer 404', async () => {
  const fx = await PlatformFixture.start({ edition: 'hosted' });
  try {
    await fx.createOrg('ho');
    for (const m of ['GET', 'POST', 'DELETE']) {
      expect((await fx.api(m, '/organizations/ho/relationships/data-retention-policy', { data: { type: 'data-retention-policy-dont-deletes' } })).status).toBe(404);
    }
    expect((await fx.api('GET', '/organizations/ho/relationships/module-producers')).status).toBe(404);
  } finally {
    await fx.stop();
  }
});
