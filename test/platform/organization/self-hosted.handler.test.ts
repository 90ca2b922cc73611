import { HandlerContext } from '../../../lib/core/engine/handler';
import { dataSourceHandler, resourceHandler } from '../../../lib/core/engine/registry';
import { admin, handlerContext, PlatformFixture } from '../helpers';
import { registerAllKinds } from '../../../lib/kinds';

registerAllKinds();

const handler = resourceHandler('platform.DataRetentionPolicy');
const prior = (id: string, s: Record<string, unknown>) => ({ id, spec: s, outputs: {} });

describe('self-hosted', () => {
  let fx: PlatformFixture;
  let ctx: HandlerContext;
  beforeAll(async () => {
    fx = await PlatformFixture.start({ edition: 'self-hosted' });
    ctx = handlerContext(fx);
    await fx.createOrg('h-sh');
  });
  afterAll(async () => {
    await ctx.http.close();
    await fx.stop();
  });

  test('DataRetentionPolicy: natural key, create, read, update to never delete, delete back to the installation default', async () => {
    const desired = { organization: 'h-sh', deleteOlderThanNDays: 30 };
    expect(handler.naturalId(desired)).toBe('h-sh');
    const w = await handler.create(ctx, desired);
    // The identity names the explicit policy too, so that the inherited default is not taken for it.
    expect(w).toMatchObject({ id: expect.stringMatching(/^h-sh\/drp-/), outputs: { type: 'data-retention-policy-delete-olders' } });
    expect((await handler.read(ctx, w.id, desired))!.fields).toEqual(desired);
    expect((await handler.read(ctx, 'h-sh', desired))!.fields).toEqual(desired);
    const never = { organization: 'h-sh', deleteOlderThanNDays: null };
    await handler.update(ctx, 'h-sh', never, [], prior('h-sh', desired));
    expect((await handler.read(ctx, 'h-sh', never))!.fields).toEqual(never);
    await admin(fx, 'PUT', '/data-retention-policy', { type: 'data-retention-policy-delete-olders', deleteOlderThanNDays: 365 });
    await handler.delete(ctx, 'h-sh', prior('h-sh', never));
    expect((await handler.read(ctx, 'h-sh'))!.fields).toEqual({ organization: 'h-sh', deleteOlderThanNDays: 365 });
    expect(await handler.read(ctx, w.id)).toBeUndefined();
    expect(await handler.read(ctx, 'h-none')).toBeUndefined();
  });

  test('ModuleProducers reads every producer', async () => {
    for (const n of ['h-p1', 'h-p2']) {
      await fx.createOrg(n);
      await admin(fx, 'POST', '/organizations/h-sh/module-producers', { producer: n });
    }
    const out = await dataSourceHandler('platform.ModuleProducers').read(ctx, { organization: 'h-sh' });
    expect(out.names).toEqual(['h-p1', 'h-p2']);
    expect((out.producers as any[])[0]).toEqual({ name: 'h-p1', externalId: expect.stringMatching(/^org-/) });
  });
});

test('hosted edition: the policy and producers are 404s', async () => {
  const fx = await PlatformFixture.start({ edition: 'hosted' });
  const ctx = handlerContext(fx);
  try {
    await fx.createOrg('h-ho');
    expect(await handler.read(ctx, 'h-ho')).toBeUndefined();
    expect((await handler.create(ctx, { organization: 'h-ho', deleteOlderThanNDays: 3 }).catch((e) => e)).status).toBe(404);
    await expect(dataSourceHandler('platform.ModuleProducers').read(ctx, { organization: 'h-ho' })).rejects.toThrow(/404/);
  } finally {
    await ctx.http.close();
    await fx.stop();
  }
});
