import { ServedApi } from '../../../lib/core/emulator-kit/server';
import { HandlerContext, PriorRecord, Spec } from '../../../lib/core/engine/handler';
import { registeredKinds, resourceHandler } from '../../../lib/core/engine/registry';
import { HttpClient, HttpRequest } from '../../../lib/core/http/http-client';
import { KvClient } from '../../../lib/secrets/kv/kv-client';
import { SecretsClient } from '../../../lib/secrets/client/secrets-client';
import { kvEngineConfigHandler } from '../../../lib/secrets/kv/kv-engine-config.handler';
import { kvSecretHandler } from '../../../lib/secrets/kv/kv-secret.handler';
import { ROOT_TOKEN, startSecrets } from '../emulator-helpers';
import { registerAllKinds } from '../../../lib/kinds';

registerAllKinds();

let served: ServedApi;
let http: HttpClient;
let ctx: HandlerContext;
let kv: KvClient;

beforeEach(async () => {
  served = await startSecrets();
  http = new HttpClient({ api: 'secrets', baseUrl: served.address, authHeaders: { 'x-secrets-token': ROOT_TOKEN }, retries: 0 });
  ctx = { address: 'stack/db', http };
  kv = new KvClient(new SecretsClient(http));
});
afterEach(async () => { await http.close(); await served.stop(); });

function spec(over: Partial<Spec> = {}): Spec {
  return {
    mount: 'secret', path: 'app/db', data: { user: 'app', password: 's3cret' },
    customMetadata: { owner: 'team' }, maxVersions: 5, casRequired: false, deleteVersionAfter: '0s', ...over,
  };
}

function prior(s: Spec, version: number): PriorRecord {
  return { id: `${s.mount}/${s.path}`, spec: s, outputs: { version } };
}

const dataChange = [{ path: 'data.password', sensitive: true, replace: false }];

test('both kinds are registered with their identities', () => {
  expect(registeredKinds().resources).toEqual(expect.arrayContaining(['secrets.KvSecret', 'secrets.KvEngineConfig']));
  expect(resourceHandler('secrets.KvSecret')).toBe(kvSecretHandler);
  expect(kvSecretHandler.naturalId(spec())).toBe('secret/app/db');
  expect(kvSecretHandler.sensitiveFields).toEqual(['data']);
  expect(kvSecretHandler.replaceFields).toEqual(['mount', 'path']);
  expect(kvSecretHandler.importId!('secret/app/db')).toBe('secret/app/db');
  expect(() => kvSecretHandler.importId!('secret')).toThrow(/<mount>\/<path>/);
});

test('create writes metadata then version 1; read returns the spec and the version', async () => {
  const s = spec();
  const w = await kvSecretHandler.create(ctx, s);
  expect(w).toEqual({ id: 'secret/app/db', outputs: { version: 1 } });
  const m = await kv.readMetadata('secret', 'app/db');
  expect(m).toMatchObject({ max_versions: 5, custom_metadata: { owner: 'team' }, current_version: 1 });
  const o = await kvSecretHandler.read(ctx, w.id, s);
  expect(o).toEqual({ fields: s, outputs: { version: 1 }, version: 1 });
  expect(await kvSecretHandler.read(ctx, 'secret/absent', spec({ path: 'absent' }))).toBeUndefined();
});

test('create refuses to overwrite a key someone else created', async () => {
  await kv.write('secret', 'app/db', { theirs: 'x' });
  await expect(kvSecretHandler.create(ctx, spec())).rejects.toThrow(/stack\/db: secret\/app\/db was written by someone else.*not overwriting/);
  expect((await kv.read('secret', 'app/db'))?.data).toEqual({ theirs: 'x' });
  expect((await kv.readMetadata('secret', 'app/db'))?.custom_metadata).toBeNull();
});

test('create completes a key left with metadata only by an interrupted create', async () => {
  await kv.writeMetadata('secret', 'app/db', { max_versions: 1 });
  expect(await kvSecretHandler.create(ctx, spec())).toEqual({ id: 'secret/app/db', outputs: { version: 1 } });
  expect((await kv.readMetadata('secret', 'app/db'))?.max_versions).toBe(5);
});

test('read gives delete_version_after in the canonical form, whatever spec it is given (or none)', async () => {
  const s = spec({ deleteVersionAfter: '1h' });
  await kvSecretHandler.create(ctx, s);
  expect((await kv.readMetadata('secret', 'app/db'))?.delete_version_after).toBe('1h0m0s');
  expect((await kvSecretHandler.read(ctx, 'secret/app/db', s))?.fields.deleteVersionAfter).toBe('1h');
  expect((await kvSecretHandler.read(ctx, 'secret/app/db', spec({ deleteVersionAfter: '2h' })))?.fields.deleteVersionAfter).toBe('1h');
  expect((await kvSecretHandler.read(ctx, 'secret/app/db'))?.fields.deleteVersionAfter).toBe('1h');
});

test('a soft-deleted or destroyed latest version reads as gone; re-creating converge\'s own key writes a new version on top', async () => {
  const s = spec();
  await kvSecretHandler.create(ctx, s);
  await kv.deleteLatest('secret', 'app/db');
  expect(await kvSecretHandler.read(ctx, 'secret/app/db', s)).toBeUndefined();
  await kv.destroyVersions('secret', 'app/db', [1]);
  expect(await kvSecretHandler.read(ctx, 'secret/app/db', s)).toBeUndefined();
  // Not converge's (no recreate): refused, nothing written.
  await expect(kvSecretHandler.create(ctx, s)).rejects.toThrow(/is not managed by converge; not writing on top of it/);
  const w = await kvSecretHandler.create({ ...ctx, recreate: true }, s);
  expect(w.outputs).toEqual({ version: 2 });
  expect((await kvSecretHandler.read(ctx, 'secret/app/db', s))?.fields.data).toEqual(s.data);
});

test('update writes a new version with cas only when data changed; metadata alone makes no version', async () => {
  const s = spec();
  await kvSecretHandler.create(ctx, s);
  const meta = spec({ maxVersions: 2, customMetadata: { owner: 'other' } });
  const w1 = await kvSecretHandler.update(ctx, 'secret/app/db', meta,
    [{ path: 'maxVersions', before: 5, after: 2, sensitive: false, replace: false },
      { path: 'customMetadata.owner', before: 'team', after: 'other', sensitive: false, replace: false }], prior(s, 1));
  expect(w1.outputs).toEqual({ version: 1 });
  expect(await kv.readMetadata('secret', 'app/db')).toMatchObject({ max_versions: 2, custom_metadata: { owner: 'other' }, current_version: 1 });
  const changed = spec({ ...meta, data: { user: 'app', password: 'rotated' } });
  const w2 = await kvSecretHandler.update(ctx, 'secret/app/db', changed, dataChange, prior(meta, 1));
  expect(w2.outputs).toEqual({ version: 2 });
  expect((await kv.read('secret', 'app/db'))?.data).toEqual({ user: 'app', password: 'rotated' });
});

test('update converges data changed outside converge back (drift) with the version it read', async () => {
  const s = spec();
  await kvSecretHandler.create(ctx, s);
  await kv.write('secret', 'app/db', { user: 'intruder' });
  const w = await kvSecretHandler.update(ctx, 'secret/app/db', s, dataChange, prior(s, 1));
  expect(w.outputs).toEqual({ version: 3 });
  expect((await kv.read('secret', 'app/db'))?.data).toEqual(s.data);
});

test('a writer racing between the read and the write is never overwritten: the update fails clearly', async () => {
  const s = spec({ casRequired: true });
  await kvSecretHandler.create(ctx, s);
  let raced = false;
  const racing = {
    request: async (r: HttpRequest) => {
      if (!raced && r.method === 'POST' && r.path.includes('/data/')) {
        raced = true;
        await kv.write('secret', 'app/db', { concurrent: 'writer' }, 1);
      }
      return http.request(r);
    },
  } as unknown as HttpClient;
  const changed = spec({ casRequired: true, data: { user: 'app', password: 'new' } });
  await expect(kvSecretHandler.update({ address: 'stack/db', http: racing }, 'secret/app/db', changed, dataChange, prior(s, 1)))
    .rejects.toThrow(/stack\/db: secret\/app\/db was written by someone else while converge worked \(expected version 1 to be current\)/);
  expect((await kv.read('secret', 'app/db'))?.data).toEqual({ concurrent: 'writer' });
});

test('delete removes the metadata and every version; deleting again succeeds', async () => {
  const s = spec();
  await kvSecretHandler.create(ctx, s);
  await kvSecretHandler.update(ctx, 'secret/app/db', spec({ data: { a: 'b' } }), dataChange, prior(s, 1));
  await kvSecretHandler.delete(ctx, 'secret/app/db', prior(s, 2));
  expect(await kv.readMetadata('secret', 'app/db')).toBeUndefined();
  expect(await kv.read('secret', 'app/db', 1)).toBeUndefined();
  await kvSecretHandler.delete(ctx, 'secret/app/db', prior(s, 2));
  expect(await kvSecretHandler.read(ctx, 'secret/app/db', s)).toBeUndefined();
});

describe('KvEngineConfig handler', () => {
  const cfg = { mount: 'secret', maxVersions: 4, casRequired: true, deleteVersionAfter: '30m' };

  test('create, read, update, delete resets the defaults', async () => {
    expect(kvEngineConfigHandler.naturalId(cfg)).toBe('secret');
    expect(await kvEngineConfigHandler.create(ctx, cfg)).toEqual({ id: 'secret' });
    expect(await kv.readConfig('secret')).toEqual({ max_versions: 4, cas_required: true, delete_version_after: '30m0s', metadata_cas_required: false });
    expect((await kvEngineConfigHandler.read(ctx, 'secret', cfg))?.fields).toEqual(cfg);
    const next = { ...cfg, casRequired: false, deleteVersionAfter: '0s' };
    await kvEngineConfigHandler.update(ctx, 'secret', next, [], { id: 'secret', spec: cfg, outputs: {} });
    expect((await kvEngineConfigHandler.read(ctx, 'secret', next))?.fields).toEqual(next);
    await kvEngineConfigHandler.delete(ctx, 'secret', { id: 'secret', spec: next, outputs: {} });
    expect(await kv.readConfig('secret')).toEqual({ max_versions: 0, cas_required: false, delete_version_after: '0s', metadata_cas_required: false });
  });

  test('a missing mount reads as absent and deletes as success', async () => {
    expect(await kvEngineConfigHandler.read(ctx, 'nomount')).toBeUndefined();
    await kvEngineConfigHandler.delete(ctx, 'nomount', { id: 'nomount', spec: {}, outputs: {} });
  });
});
