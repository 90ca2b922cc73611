import { ServedApi } from '../../../lib/core/emulator-kit/server';
import { ApiError } from '../../../lib/core/http/api-error';
import { KvClient } from '../../../lib/secrets/kv/kv-client';
import { SecretsClient } from '../../../lib/secrets/client/secrets-client';
import { ROOT_TOKEN, startSecrets } from '../emulator-helpers';

let served: ServedApi;
let secrets: SecretsClient;
let kv: KvClient;
beforeEach(async () => {
  served = await startSecrets({ secret: 'kv', 'team/kv': 'kv' });
  secrets = SecretsClient.connect({ address: served.address, token: ROOT_TOKEN, options: { retries: 0 } });
  kv = new KvClient(secrets);
});
afterEach(async () => { await secrets.close(); await served.stop(); });

test('config write and read', async () => {
  await kv.writeConfig('secret', { max_versions: 3, cas_required: false, delete_version_after: '90m' });
  expect(await kv.readConfig('secret')).toEqual({ max_versions: 3, cas_required: false, delete_version_after: '1h30m0s', metadata_cas_required: false });
  expect(await kv.readConfig('nomount')).toBeUndefined();
});

test('write, read by version, patch, subkeys', async () => {
  expect((await kv.write('secret', 'app/db', { u: 'a' }, 0)).version).toBe(1);
  await kv.write('secret', 'app/db', { u: 'b', nested: { x: 1 } });
  expect((await kv.read('secret', 'app/db'))?.data).toEqual({ u: 'b', nested: { x: 1 } });
  expect((await kv.read('secret', 'app/db', 1))?.data).toEqual({ u: 'a' });
  expect(await kv.read('secret', 'missing')).toBeUndefined();
  expect((await kv.patch('secret', 'app/db', { u: null, v: 'c' }, 2)).version).toBe(3);
  expect((await kv.read('secret', 'app/db'))?.data).toEqual({ nested: { x: 1 }, v: 'c' });
  expect((await kv.subkeys('secret', 'app/db'))?.subkeys).toEqual({ nested: { x: null }, v: null });
  expect((await kv.subkeys('secret', 'app/db', { depth: 1 }))?.subkeys).toEqual({ nested: null, v: null });
  expect((await kv.subkeys('secret', 'app/db', { version: 1 }))?.subkeys).toEqual({ u: null });
  expect(await kv.subkeys('secret', 'missing')).toBeUndefined();
});

test('a cas mismatch throws an ApiError with the API status and message', async () => {
  await kv.write('secret', 'k', { a: 1 });
  const err = await kv.write('secret', 'k', { a: 2 }, 0).catch((e) => e);
  expect(err).toBeInstanceOf(ApiError);
  expect(err.status).toBe(400);
  expect(err.apiMessages).toEqual(['check-and-set parameter did not match the current version']);
  expect(err.message).not.toContain(ROOT_TOKEN);
});

test('delete, undelete, destroy; a deleted version reads with null data and its metadata', async () => {
  await kv.write('secret', 'k', { a: 1 });
  await kv.write('secret', 'k', { a: 2 });
  await kv.deleteLatest('secret', 'k');
  const deleted = await kv.read('secret', 'k');
  expect(deleted?.data).toBeNull();
  expect(deleted?.metadata.version).toBe(2);
  await kv.undeleteVersions('secret', 'k', [2]);
  expect((await kv.read('secret', 'k'))?.data).toEqual({ a: 2 });
  await kv.deleteVersions('secret', 'k', [1]);
  expect((await kv.read('secret', 'k', 1))?.data).toBeNull();
  await kv.destroyVersions('secret', 'k', [1]);
  expect((await kv.read('secret', 'k', 1))?.metadata.destroyed).toBe(true);
  expect((await kv.subkeys('secret', 'k', { version: 1 }))?.subkeys).toBeNull();
});

test('list, metadata read/write/patch/delete, paths encoded, nested mounts', async () => {
  await kv.write('secret', 'dir/a b', { a: 1 });
  await kv.write('secret', 'dir/sub/c', { a: 1 });
  expect(await kv.list('secret')).toEqual(['dir/']);
  expect(await kv.list('secret', 'dir')).toEqual(['a b', 'sub/']);
  expect(await kv.list('secret', 'empty')).toEqual([]);
  await kv.writeMetadata('secret', 'dir/a b', { max_versions: 2, custom_metadata: { o: 'x' } });
  await kv.patchMetadata('secret', 'dir/a b', { custom_metadata: { p: 'y' }, delete_version_after: '1h' });
  expect(await kv.readMetadata('secret', 'dir/a b')).toMatchObject({
    max_versions: 2, custom_metadata: { o: 'x', p: 'y' }, delete_version_after: '1h0m0s', current_version: 1,
  });
  await kv.deleteMetadata('secret', 'dir/a b');
  expect(await kv.readMetadata('secret', 'dir/a b')).toBeUndefined();
  await kv.deleteMetadata('secret', 'dir/a b');
  await kv.write('team/kv', 'x', { t: 1 });
  expect((await kv.read('team/kv', 'x'))?.data).toEqual({ t: 1 });
  await expect(kv.read('secret', '../etc')).rejects.toThrow(/\.\./);
});

test('a wrong token is a permission error naming the variable, never the token', async () => {
  const bad = SecretsClient.connect({ address: served.address, token: 'not-the-token', options: { retries: 0 } });
  try {
    const err = await new KvClient(bad).readMetadata('secret', 'x').catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(403);
    expect(err.message).toMatch(/permission denied.*SECRETS_TOKEN/);
    expect(err.message).not.toContain('not-the-token');
  } finally { await bad.close(); }
});
