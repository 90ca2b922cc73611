import { HandlerContext } from '../../../lib/core/engine/handler';
import { resourceHandler } from '../../../lib/core/engine/registry';
import { admin, handlerContext, PlatformFixture, seedOrg } from '../helpers';
import { registerAllKinds } from '../../../lib/kinds';

registerAllKinds();

const handler = resourceHandler('platform.OAuthClient');
let fx: PlatformFixture;
let ctx: HandlerContext;
let projects: string[];

function spec(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    organization: 'h-vcs', name: 'main', serviceProvider: 'provider_a', key: 'k', httpUrl: 'https://vcs.example.com',
    apiUrl: 'https://api.vcs.example.com', oauthToken: 'token-string', privateKey: null, secret: null, rsaPublicKey: null,
    organizationScoped: true, projects: [], ...over,
  };
}
const prior = (id: string, s: Record<string, unknown>) => ({ id, spec: s, outputs: {} });

beforeAll(async () => {
  fx = await PlatformFixture.start();
  ctx = handlerContext(fx);
  const { project } = await seedOrg(fx, 'h-vcs');
  const other = await admin(fx, 'POST', '/organizations/h-vcs/projects', { name: 'other' });
  projects = [project.id, other.id].sort();
});
afterAll(async () => {
  await ctx.http.close();
  await fx.stop();
});

test('contract: server-assigned id, replace fields, destroy warning, import ids', () => {
  expect(handler.naturalId(spec())).toBeUndefined();
  expect(handler.replaceFields).toEqual(expect.arrayContaining(['serviceProvider', 'httpUrl', 'apiUrl', 'oauthToken', 'privateKey', 'organization']));
  expect(handler.replaceFields).not.toContain('name');
  expect(handler.destroyWarning).toMatch(/unlinks every workspace/);
  expect(handler.importId!('oc-abc123')).toBe('oc-abc123');
  expect(() => handler.importId!('h-vcs/main')).toThrow(/oc-/);
});

test('create, read (write-only fields left out), no-op, update in place with project sync, delete', async () => {
  const desired = spec({ projects: [projects[0]] });
  const w = await handler.create(ctx, desired);
  expect(w.id).toMatch(/^oc-/);
  expect(w.outputs!.oauthTokenId).toMatch(/^ot-/);
  const read = await handler.read(ctx, w.id, desired);
  const { oauthToken: _t, privateKey: _p, secret: _s, ...returned } = desired;
  expect(read!.fields).toEqual(returned);
  const updated = spec({ name: 'renamed', key: 'k2', organizationScoped: false, projects: [projects[1]], secret: 'new-secret' });
  await handler.update(ctx, w.id, updated, [{ path: 'secret', sensitive: true, replace: false }], prior(w.id, desired));
  const after = await handler.read(ctx, w.id, updated);
  expect(after!.fields).toMatchObject({ name: 'renamed', key: 'k2', organizationScoped: false, projects: [projects[1]] });
  await handler.delete(ctx, w.id, prior(w.id, updated));
  expect(await handler.read(ctx, w.id)).toBeUndefined();
  await handler.delete(ctx, w.id, prior(w.id, updated));
});

test('a token string without key or name is accepted; name null shows the provider display name; both set and cleared in place', async () => {
  const desired = spec({ name: null, key: null, httpUrl: 'https://nokey.example.com' });
  const w = await handler.create(ctx, desired);
  const read = await handler.read(ctx, w.id, desired);
  expect(read!.fields).toMatchObject({ name: null, key: null });
  const shown = (await fx.api('GET', `/oauth-clients/${w.id}`)).body.data.attributes;
  expect(shown).toMatchObject({ name: null, key: null });
  expect(shown['service-provider-display-name']).toBeTruthy();
  const named = spec({ name: 'named', key: 'k3', httpUrl: 'https://nokey.example.com' });
  await handler.update(ctx, w.id, named, [], prior(w.id, desired));
  expect((await handler.read(ctx, w.id, named))!.fields).toMatchObject({ name: 'named', key: 'k3' });
  await handler.update(ctx, w.id, desired, [], prior(w.id, named));
  expect((await handler.read(ctx, w.id, desired))!.fields).toMatchObject({ name: null, key: null });
  expect((await handler.find!(ctx, desired)).map((c) => c.id)).toEqual([w.id]);
  await handler.delete(ctx, w.id, prior(w.id, desired));
});

test('find after a crash between create and record: the same name, provider and URL', async () => {
  const desired = spec({ name: 'crashy' });
  const w = await handler.create(ctx, desired);
  expect((await handler.find!(ctx, desired)).map((c) => c.id)).toEqual([w.id]);
  expect(await handler.find!(ctx, spec({ name: 'crashy', httpUrl: 'https://other.example.com' }))).toEqual([]);
  expect(await handler.find!(ctx, spec({ name: 'never' }))).toEqual([]);
});

test('a refusal keeps the status: provider_c_server without a private key is a 422', async () => {
  const err = await handler.create(ctx, spec({ serviceProvider: 'provider_c_server' })).catch((e) => e);
  expect(err.status).toBe(422);
  expect(err.message).toMatch(/private-key can't be blank/);
});

test('find for an organization that does not exist yet answers nothing (no error)', async () => {
  expect(await handler.find!(ctx, spec({ organization: 'h-not-yet' }))).toEqual([]);
  expect(await resourceHandler('platform.AgentPool').find!(ctx, { organization: 'h-not-yet', name: 'p' })).toEqual([]);
  expect(await resourceHandler('platform.NoCodeModule').find!(ctx, { organization: 'h-not-yet', moduleName: 'm', moduleProvider: 'aws' })).toEqual([]);
  expect(await resourceHandler('platform.NoCodeWorkspace').find!(ctx, { organization: 'h-not-yet', name: 'w' })).toEqual([]);
});
