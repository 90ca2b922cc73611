import { ServedApi } from '../../../lib/core/emulator-kit/server';
import { ManualClock } from '../../support/fake-clock';
import { call, ROOT_TOKEN, startSecrets } from '../emulator-helpers';

const RFC3339_NANO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/;
const MP = { 'content-type': 'application/merge-patch+json' };

let served: ServedApi;
beforeEach(async () => { served = await startSecrets(); });
afterEach(async () => { await served.stop(); });

const write = (path: string, data: unknown, cas?: number) =>
  call(served, 'POST', `/v1/secret/data/${path}`, { body: cas === undefined ? { data } : { options: { cas }, data } });
const read = (path: string, version?: number) =>
  call(served, 'GET', `/v1/secret/data/${path}${version === undefined ? '' : `?version=${version}`}`);
const meta = (path: string) => call(served, 'GET', `/v1/secret/metadata/${path}`);

describe('envelope and conventions', () => {
  test('a write answers the envelope with version metadata', async () => {
    const a = await write('app/db', { user: 'u', password: 'p' });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ lease_id: '', renewable: false, lease_duration: 0, wrap_info: null, warnings: null, auth: null });
    expect(typeof a.body.request_id).toBe('string');
    expect(a.body.data).toEqual({
      created_time: expect.stringMatching(RFC3339_NANO), custom_metadata: null, deletion_time: '', destroyed: false, version: 1,
    });
  });

  test('a missing or wrong token is refused with 403 permission denied on every endpoint', async () => {
    for (const [m, p] of [['GET', '/v1/secret/config'], ['POST', '/v1/secret/data/x'], ['GET', '/v1/secret/metadata/?list=true'],
      ['GET', '/v1/nowhere'], ['GET', '/__admin/mounts']]) {
      for (const token of [null, 'wrong']) {
        const a = await call(served, m, p, { token, body: m === 'POST' ? { data: {} } : undefined });
        expect(a.status).toBe(403);
        expect(a.body).toEqual({ errors: ['permission denied'] });
      }
    }
  });

  test('405 for an unsupported method on a known path', async () => {
    expect((await call(served, 'DELETE', '/v1/secret/config')).status).toBe(405);
    const a = await call(served, 'PATCH', '/v1/secret/subkeys/x', { headers: MP, body: {} });
    expect(a.status).toBe(405);
    expect(a.body.errors).toHaveLength(1);
    expect((await call(served, 'GET', '/v1/secret/delete/x')).status).toBe(405);
  });

  test('bad JSON is 400; unknown paths are 404', async () => {
    const a = await call(served, 'POST', '/v1/secret/data/x', { rawBody: '{not json', headers: { 'content-type': 'application/json' } });
    expect(a.status).toBe(400);
    expect(a.body.errors[0]).toMatch(/failed to parse JSON/);
    expect((await call(served, 'GET', '/v1/secret/unknown/x')).status).toBe(404);
    expect((await call(served, 'GET', '/v1/nomount/data/x')).status).toBe(404);
    expect((await call(served, 'GET', '/elsewhere')).body).toEqual({ errors: [] });
  });

  test('write without data is 400', async () => {
    const a = await call(served, 'POST', '/v1/secret/data/x', { body: { options: {} } });
    expect(a).toMatchObject({ status: 400, body: { errors: ['no data provided'] } });
  });
});

describe('config', () => {
  test('defaults, write (204, no body) and read back with Go duration strings', async () => {
    expect((await call(served, 'GET', '/v1/secret/config')).body.data)
      .toEqual({ cas_required: false, delete_version_after: '0s', max_versions: 0, metadata_cas_required: false });
    const w = await call(served, 'POST', '/v1/secret/config', { body: { max_versions: 5, cas_required: true, delete_version_after: '3h25m19s' } });
    expect(w.status).toBe(204);
    expect(w.body).toBeUndefined();
    expect((await call(served, 'GET', '/v1/secret/config')).body.data)
      .toEqual({ cas_required: true, delete_version_after: '3h25m19s', max_versions: 5, metadata_cas_required: false });
    await call(served, 'PUT', '/v1/secret/config', { body: { delete_version_after: 3600 } });
    expect((await call(served, 'GET', '/v1/secret/config')).body.data.delete_version_after).toBe('1h0m0s');
  });

  test('invalid values are 400', async () => {
    expect((await call(served, 'POST', '/v1/secret/config', { body: { max_versions: -1 } })).status).toBe(400);
    expect((await call(served, 'POST', '/v1/secret/config', { body: { delete_version_after: 'soon' } })).status).toBe(400);
  });
});

describe('read and write', () => {
  test('read latest and by version; missing key and missing version are plain 404', async () => {
    await write('k', { a: '1' });
    await write('k', { a: '2', n: 3, b: true });
    expect((await read('k')).body.data.data).toEqual({ a: '2', n: 3, b: true });
    expect((await read('k', 1)).body.data.data).toEqual({ a: '1' });
    expect((await read('k', 0)).body.data.metadata.version).toBe(2);
    expect(await read('absent')).toMatchObject({ status: 404, body: { errors: [] } });
    expect(await read('k', 7)).toMatchObject({ status: 404, body: { errors: [] } });
    expect((await call(served, 'GET', '/v1/secret/data/k?version=abc')).status).toBe(400);
  });

  test('cas 0 writes only when the key does not exist', async () => {
    expect((await write('c', { a: 1 }, 0)).status).toBe(200);
    const a = await write('c', { a: 2 }, 0);
    expect(a).toMatchObject({ status: 400, body: { errors: ['check-and-set parameter did not match the current version'] } });
  });

  test('cas must equal the current version', async () => {
    await write('c', { a: 1 });
    expect((await write('c', { a: 2 }, 2)).body).toEqual({ errors: ['check-and-set parameter did not match the current version'] });
    expect((await write('c', { a: 2 }, 1)).body.data.version).toBe(2);
    // Weakly decoded like the real service: a numeric string works, anything else is a parse error.
    expect((await call(served, 'POST', '/v1/secret/data/c', { body: { options: { cas: '2' }, data: { a: 3 } } })).body.data.version).toBe(3);
    expect((await call(served, 'POST', '/v1/secret/data/c', { body: { options: { cas: 'x' }, data: { a: 3 } } })).body)
      .toEqual({ errors: ['error parsing check-and-set parameter'] });
  });

  test('a soft-deleted key still has its version, so cas must match it', async () => {
    await write('c', { a: 1 });
    await call(served, 'DELETE', '/v1/secret/data/c');
    expect((await write('c', { a: 2 }, 0)).status).toBe(400);
    expect((await write('c', { a: 2 }, 1)).status).toBe(200);
  });

  test('cas required on the engine or on the key', async () => {
    await call(served, 'POST', '/v1/secret/config', { body: { cas_required: true } });
    expect(await write('r', { a: 1 })).toMatchObject({ status: 400, body: { errors: ['check-and-set parameter required for this call'] } });
    expect((await write('r', { a: 1 }, 0)).status).toBe(200);
    await call(served, 'POST', '/v1/secret/config', { body: { cas_required: false } });
    expect((await write('r', { a: 2 })).status).toBe(200);
    await call(served, 'POST', '/v1/secret/metadata/r', { body: { cas_required: true } });
    expect((await write('r', { a: 3 })).body).toEqual({ errors: ['check-and-set parameter required for this call'] });
    expect((await write('r', { a: 3 }, 2)).status).toBe(200);
  });
});

describe('patch', () => {
  test('needs the merge-patch content type (415 otherwise)', async () => {
    await write('p', { a: '1' });
    const a = await call(served, 'PATCH', '/v1/secret/data/p', { body: { data: { b: '2' } } });
    expect(a.status).toBe(415);
    expect(a.body.errors[0]).toMatch(/merge-patch\+json/);
  });

  test('applies a JSON merge patch as a new version', async () => {
    await write('p', { a: '1', b: '2', nested: { x: 1, y: 2 } });
    const a = await call(served, 'PATCH', '/v1/secret/data/p', { headers: MP, body: { data: { b: null, c: '3', nested: { y: null } } } });
    expect(a.status).toBe(200);
    expect(a.body.data.version).toBe(2);
    expect((await read('p')).body.data.data).toEqual({ a: '1', c: '3', nested: { x: 1 } });
  });

  test('the key must exist and be neither deleted nor destroyed', async () => {
    expect((await call(served, 'PATCH', '/v1/secret/data/none', { headers: MP, body: { data: { a: 1 } } })).status).toBe(404);
    await write('p', { a: 1 });
    await call(served, 'DELETE', '/v1/secret/data/p');
    const del = await call(served, 'PATCH', '/v1/secret/data/p', { headers: MP, body: { data: { a: 2 } } });
    expect(del.status).toBe(404);
    expect(del.body.data).toMatchObject({ version: 1, destroyed: false, deletion_time: expect.stringMatching(RFC3339_NANO) });
    await call(served, 'POST', '/v1/secret/metadata/m', { body: { max_versions: 1 } });
    expect(await call(served, 'PATCH', '/v1/secret/data/m', { headers: MP, body: { data: { a: 2 } } })).toMatchObject({ status: 404, body: { errors: [] } });
    await write('q', { a: 1 });
    await call(served, 'PUT', '/v1/secret/destroy/q', { body: { versions: [1] } });
    expect((await call(served, 'PATCH', '/v1/secret/data/q', { headers: MP, body: { data: { a: 2 } } })).status).toBe(404);
  });

  test('cas on patch must be greater than 0 and match', async () => {
    await write('p', { a: 1 });
    const patch = (cas: number) => call(served, 'PATCH', '/v1/secret/data/p', { headers: MP, body: { options: { cas }, data: { a: 2 } } });
    expect((await patch(0)).body).toEqual({ errors: ['check-and-set parameter did not match the current version'] });
    expect((await patch(2)).status).toBe(400);
    expect((await patch(1)).status).toBe(200);
  });
});

describe('subkeys', () => {
  const data = { foo: 'abc', bar: { baz: 'def', deep: { x: 1 } }, quux: {} };
  test('leaf values replaced by null, depth limits the levels', async () => {
    await write('s', data);
    const all = await call(served, 'GET', '/v1/secret/subkeys/s');
    expect(all.status).toBe(200);
    expect(all.body.data.subkeys).toEqual({ foo: null, bar: { baz: null, deep: { x: null } }, quux: null });
    expect(all.body.data.metadata.version).toBe(1);
    expect((await call(served, 'GET', '/v1/secret/subkeys/s?depth=1')).body.data.subkeys).toEqual({ foo: null, bar: null, quux: null });
    expect((await call(served, 'GET', '/v1/secret/subkeys/s?depth=2')).body.data.subkeys)
      .toEqual({ foo: null, bar: { baz: null, deep: null }, quux: null });
  });

  test('by version; absent is 404; deleted version 404 with metadata', async () => {
    await write('s', { a: 1 });
    await write('s', { b: 1 });
    expect((await call(served, 'GET', '/v1/secret/subkeys/s?version=1')).body.data.subkeys).toEqual({ a: null });
    expect((await call(served, 'GET', '/v1/secret/subkeys/none')).status).toBe(404);
    await call(served, 'DELETE', '/v1/secret/data/s');
    const d = await call(served, 'GET', '/v1/secret/subkeys/s');
    expect(d.status).toBe(404);
    expect(d.body.data.subkeys).toBeNull();
    expect(d.body.data.metadata.version).toBe(2);
  });
});

describe('version states', () => {
  test('DELETE soft-deletes the latest version: 404 envelope with data null and metadata filled', async () => {
    await write('d', { a: 1 });
    await write('d', { a: 2 });
    const del = await call(served, 'DELETE', '/v1/secret/data/d');
    expect(del.status).toBe(204);
    const r = await read('d');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ lease_id: '', renewable: false, lease_duration: 0, wrap_info: null, warnings: null, auth: null });
    expect(r.body.data.data).toBeNull();
    expect(r.body.data.metadata).toMatchObject({ version: 2, destroyed: false, deletion_time: expect.stringMatching(RFC3339_NANO) });
    expect((await read('d', 1)).body.data.data).toEqual({ a: 1 });
  });

  test('delete and undelete listed versions', async () => {
    await write('d', { a: 1 });
    await write('d', { a: 2 });
    expect((await call(served, 'POST', '/v1/secret/delete/d', { body: { versions: [1, 2] } })).status).toBe(204);
    expect((await read('d', 1)).status).toBe(404);
    expect((await read('d', 2)).status).toBe(404);
    expect((await call(served, 'POST', '/v1/secret/undelete/d', { body: { versions: '1' } })).status).toBe(204);
    expect((await read('d', 1)).body.data).toMatchObject({ data: { a: 1 }, metadata: { deletion_time: '' } });
    expect((await read('d', 2)).status).toBe(404);
  });

  test('destroy removes data permanently; undelete does not bring it back', async () => {
    await write('x', { a: 1 });
    expect((await call(served, 'PUT', '/v1/secret/destroy/x', { body: { versions: [1] } })).status).toBe(204);
    const r = await read('x');
    expect(r.status).toBe(404);
    expect(r.body.data).toMatchObject({ data: null, metadata: { destroyed: true, version: 1 } });
    await call(served, 'POST', '/v1/secret/undelete/x', { body: { versions: [1] } });
    expect((await read('x')).body.data.data).toBeNull();
    expect((await meta('x')).body.data.versions['1'].destroyed).toBe(true);
  });

  test('a soft-deleted version can be destroyed', async () => {
    await write('x', { a: 1 });
    await call(served, 'DELETE', '/v1/secret/data/x');
    await call(served, 'PUT', '/v1/secret/destroy/x', { body: { versions: [1] } });
    expect((await read('x')).body.data.metadata.destroyed).toBe(true);
  });

  test('versions are required on delete, undelete, destroy', async () => {
    await write('x', { a: 1 });
    for (const [m, p, msg] of [['POST', 'delete', 'No'], ['POST', 'undelete', 'No'], ['PUT', 'destroy', 'no']]) {
      const a = await call(served, m, `/v1/secret/${p}/x`, { body: {} });
      expect(a).toMatchObject({ status: 400, body: { errors: [`${msg} version number provided`] } });
    }
  });
});

describe('writes on absent keys and repeated deletes', () => {
  test('DELETE, delete, undelete and destroy of an absent key answer 204', async () => {
    expect((await call(served, 'DELETE', '/v1/secret/data/none')).status).toBe(204);
    for (const [m, p] of [['POST', 'delete'], ['POST', 'undelete'], ['PUT', 'destroy']]) {
      expect((await call(served, m, `/v1/secret/${p}/none`, { body: { versions: [1] } })).status).toBe(204);
    }
    expect((await meta('none')).status).toBe(404);
  });

  test('deleting a deleted version keeps its deletion_time; unknown versions are ignored', async () => {
    await write('r', { a: 1 });
    await call(served, 'DELETE', '/v1/secret/data/r');
    const first = (await meta('r')).body.data.versions['1'].deletion_time;
    await call(served, 'DELETE', '/v1/secret/data/r');
    await call(served, 'POST', '/v1/secret/delete/r', { body: { versions: [1, 9] } });
    expect((await meta('r')).body.data.versions['1'].deletion_time).toBe(first);
    expect(Object.keys((await meta('r')).body.data.versions)).toEqual(['1']);
  });

  test('PUT is the same as POST for writes', async () => {
    const a = await call(served, 'PUT', '/v1/secret/data/put', { body: { data: { a: 1 } } });
    expect(a.status).toBe(200);
    expect(a.body.data.version).toBe(1);
    expect((await call(served, 'POST', '/v1/secret/destroy/put', { body: { versions: [1] } })).status).toBe(204);
    expect((await read('put')).body.data.metadata.destroyed).toBe(true);
  });

  test('a write to a key with metadata only starts at version 1 and keeps its metadata', async () => {
    await call(served, 'POST', '/v1/secret/metadata/mo', { body: { max_versions: 2, custom_metadata: { a: 'b' } } });
    const w = await write('mo', { x: 1 }, 0);
    expect(w.body.data).toMatchObject({ version: 1, custom_metadata: { a: 'b' } });
    expect((await meta('mo')).body.data.max_versions).toBe(2);
  });
});

describe('trimming and max_versions', () => {
  test('0 keeps 10 versions; trimmed on the next write', async () => {
    for (let i = 1; i <= 11; i++) await write('t', { i });
    const m = (await meta('t')).body.data;
    expect(Object.keys(m.versions).map(Number).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(m.oldest_version).toBe(2);
    expect(m.current_version).toBe(11);
    expect((await read('t', 1)).status).toBe(404);
  });

  test("the key's max_versions overrides the engine's; lowering it trims only on the next write", async () => {
    await call(served, 'POST', '/v1/secret/config', { body: { max_versions: 2 } });
    for (let i = 1; i <= 3; i++) await write('e', { i });
    expect(Object.keys((await meta('e')).body.data.versions)).toEqual(['2', '3']);
    await call(served, 'POST', '/v1/secret/metadata/k', { body: { max_versions: 4 } });
    for (let i = 1; i <= 5; i++) await write('k', { i });
    expect(Object.keys((await meta('k')).body.data.versions)).toEqual(['2', '3', '4', '5']);
    await call(served, 'POST', '/v1/secret/metadata/k', { body: { max_versions: 1 } });
    expect(Object.keys((await meta('k')).body.data.versions)).toHaveLength(4);
    await write('k', { i: 6 });
    expect(Object.keys((await meta('k')).body.data.versions)).toEqual(['6']);
    expect((await meta('k')).body.data.oldest_version).toBe(6);
  });
});

describe('delete_version_after', () => {
  test('versions past deletion_time read as deleted', async () => {
    const clock = new ManualClock();
    await served.stop();
    served = await startSecrets(undefined, clock);
    await call(served, 'POST', '/v1/secret/metadata/exp', { body: { delete_version_after: '1s' } });
    const w = await write('exp', { a: 1 });
    expect(w.body.data.deletion_time).toMatch(RFC3339_NANO);
    expect(Date.parse(w.body.data.deletion_time) - Date.parse(w.body.data.created_time)).toBe(1000);
    clock.advance(999);
    expect((await read('exp')).body.data.data).toEqual({ a: 1 });
    expect((await call(served, 'GET', '/v1/secret/subkeys/exp')).status).toBe(200);
    clock.advance(2);
    const r = await read('exp');
    expect(r.status).toBe(404);
    expect(r.body.data.data).toBeNull();
    expect(r.body.data.metadata).toMatchObject({ version: 1, destroyed: false, deletion_time: w.body.data.deletion_time });
    expect((await call(served, 'GET', '/v1/secret/subkeys/exp')).status).toBe(404);
    // Undelete brings an expired version back, with a fresh deletion time.
    await call(served, 'POST', '/v1/secret/undelete/exp', { body: { versions: [1] } });
    const back = await read('exp');
    expect(back.body.data.data).toEqual({ a: 1 });
    expect(Date.parse(back.body.data.metadata.deletion_time)).toBeGreaterThan(Date.parse(w.body.data.deletion_time));
  });

  test("a key's value greater than the engine's is replaced by the engine's", async () => {
    await call(served, 'POST', '/v1/secret/config', { body: { delete_version_after: '1h' } });
    await call(served, 'POST', '/v1/secret/metadata/cap', { body: { delete_version_after: '48h' } });
    expect((await meta('cap')).body.data.delete_version_after).toBe('48h0m0s');
    const w = await write('cap', { a: 1 });
    const created = Date.parse(w.body.data.created_time);
    const deletion = Date.parse(w.body.data.deletion_time);
    expect(deletion - created).toBe(3600_000);
  });

  test('the engine value applies when the key has none; 0s means never', async () => {
    const plain = await write('never', { a: 1 });
    expect(plain.body.data.deletion_time).toBe('');
    await call(served, 'POST', '/v1/secret/config', { body: { delete_version_after: '2h' } });
    const w = await write('eng', { a: 1 });
    expect(Date.parse(w.body.data.deletion_time) - Date.parse(w.body.data.created_time)).toBe(7200_000);
  });
});

describe('metadata', () => {
  test('read metadata of a key', async () => {
    await write('m', { a: 1 });
    await write('m', { a: 2 });
    const a = await meta('m');
    expect(a.status).toBe(200);
    expect(a.body.data).toEqual({
      cas_required: false, created_time: expect.stringMatching(RFC3339_NANO), current_metadata_version: 0, current_version: 2, custom_metadata: null,
      delete_version_after: '0s', max_versions: 0, metadata_cas_required: false, oldest_version: 0, updated_time: expect.stringMatching(RFC3339_NANO),
      versions: {
        1: { created_time: expect.stringMatching(RFC3339_NANO), deletion_time: '', destroyed: false },
        2: { created_time: expect.stringMatching(RFC3339_NANO), deletion_time: '', destroyed: false },
      },
    });
    expect(await meta('absent')).toMatchObject({ status: 404, body: { errors: [] } });
  });

  test('write metadata does not create a version; custom_metadata shows in version reads', async () => {
    const w = await call(served, 'POST', '/v1/secret/metadata/n', {
      body: { max_versions: 3, cas_required: true, delete_version_after: '3h25m19s', custom_metadata: { owner: 'team' } },
    });
    expect(w.status).toBe(204);
    const m = (await meta('n')).body.data;
    expect(m).toMatchObject({ max_versions: 3, cas_required: true, delete_version_after: '3h25m19s', custom_metadata: { owner: 'team' }, current_version: 0, versions: {} });
    expect((await read('n')).status).toBe(404);
    expect((await write('n', { a: 1 }, 0)).body.data.custom_metadata).toEqual({ owner: 'team' });
    expect((await read('n')).body.data.metadata.custom_metadata).toEqual({ owner: 'team' });
  });

  test('patch metadata merges custom_metadata and needs the merge-patch type and an existing key', async () => {
    expect((await call(served, 'PATCH', '/v1/secret/metadata/none', { headers: MP, body: { max_versions: 1 } })).status).toBe(404);
    await call(served, 'POST', '/v1/secret/metadata/pm', { body: { max_versions: 3, custom_metadata: { a: '1', b: '2' } } });
    expect((await call(served, 'PATCH', '/v1/secret/metadata/pm', { body: { max_versions: 1 } })).status).toBe(415);
    const p = await call(served, 'PATCH', '/v1/secret/metadata/pm', { headers: MP, body: { cas_required: true, custom_metadata: { a: null, c: '3' } } });
    expect(p.status).toBe(204);
    expect((await meta('pm')).body.data).toMatchObject({ max_versions: 3, cas_required: true, custom_metadata: { b: '2', c: '3' } });
  });

  test('custom_metadata limits: 64 keys, key 128, value 512 characters', async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 65; i++) many[`k${i}`] = 'v';
    const post = (cm: unknown) => call(served, 'POST', '/v1/secret/metadata/lim', { body: { custom_metadata: cm } });
    expect((await post(many)).status).toBe(400);
    delete many.k64;
    expect((await post(many)).status).toBe(204);
    expect((await post({ ['k'.repeat(129)]: 'v' })).status).toBe(400);
    expect((await post({ ['k'.repeat(128)]: 'v' })).status).toBe(204);
    const long = await post({ k: 'v'.repeat(513) });
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual(['1 error occurred:\n\t* custom_metadata validation failed: length of value for key "k" is 513 but must be 0 < len(value) <= 512\n\n']);
    expect((await post({ k: 'v'.repeat(512) })).status).toBe(204);
    expect((await post({ k: '' })).status).toBe(400);
    expect((await post({ k: { nested: 1 } })).status).toBe(400);
    // Values are weakly decoded to strings, as the real service does.
    expect((await post({ n: 1, b: true })).status).toBe(204);
    expect((await meta('lim')).body.data.custom_metadata).toEqual({ n: '1', b: 'true' });
  });

  test('a metadata write without any field changes nothing, not even creating the key', async () => {
    expect((await call(served, 'POST', '/v1/secret/metadata/nothing', { body: {} })).status).toBe(204);
    expect((await meta('nothing')).status).toBe(404);
  });

  test('cas_required false on a key while the engine requires it answers a warning', async () => {
    await call(served, 'POST', '/v1/secret/config', { body: { cas_required: true } });
    const a = await call(served, 'POST', '/v1/secret/metadata/w', { body: { cas_required: false } });
    expect(a.status).toBe(200);
    expect(a.body.warnings).toEqual(['"cas_required" set to false, but is mandated by backend config. This value will be ignored.']);
    expect((await write('w', { a: 1 })).body).toEqual({ errors: ['check-and-set parameter required for this call'] });
  });

  test('delete metadata removes every version; deleting again succeeds', async () => {
    await write('gone', { a: 1 });
    expect((await call(served, 'DELETE', '/v1/secret/metadata/gone')).status).toBe(204);
    expect((await meta('gone')).status).toBe(404);
    expect((await read('gone')).status).toBe(404);
    expect((await call(served, 'DELETE', '/v1/secret/metadata/gone')).status).toBe(204);
  });
});

describe('list', () => {
  // Node's HTTP parser refuses the LIST method before any handler runs (400), so over HTTP the
  // equivalent `GET ?list=true` is used (as the real service's Go client does); LIST itself is
  // checked against the emulator's request handler.
  const list = (path: string) => call(served, 'GET', `/v1/secret/metadata/${path}?list=true`);

  test('GET ?list=true lists names; folders end with /; an empty list is 404', async () => {
    await write('app/db', { a: 1 });
    await write('app/api/key', { a: 1 });
    await write('top', { a: 1 });
    const root = await list('');
    expect(root.status).toBe(200);
    expect(root.body.data.keys).toEqual(['app/', 'top']);
    expect((await list('app')).body.data.keys).toEqual(['api/', 'db']);
    expect((await list('app/')).body.data.keys).toEqual(['api/', 'db']);
    expect(await list('top')).toMatchObject({ status: 404, body: { errors: [] } });
    expect((await list('nothing/')).status).toBe(404);
  });

  test('the LIST method is the same as GET ?list=true', async () => {
    await write('app/db', { a: 1 });
    const req = (method: string, query: string) => served.api.handle({
      method, path: '/v1/secret/metadata/app/', rawPath: '/v1/secret/metadata/app/', query: new URLSearchParams(query),
      headers: { 'x-secrets-token': ROOT_TOKEN }, body: Buffer.alloc(0),
    });
    const viaList = await req('LIST', '');
    expect(viaList.status).toBe(200);
    expect((viaList.body as any).data.keys).toEqual(['db']);
    expect(((await req('GET', 'list=true')).body as any).data.keys).toEqual(['db']);
    expect(served.api.mutates({ method: 'LIST' } as any)).toBe(false);
    expect(served.api.mutates({ method: 'POST' } as any)).toBe(true);
  });

  test('a soft-deleted key is still listed; a key whose metadata is deleted is not', async () => {
    await write('a', { a: 1 });
    await write('b', { a: 1 });
    await call(served, 'DELETE', '/v1/secret/data/a');
    await call(served, 'DELETE', '/v1/secret/metadata/b');
    expect((await list('')).body.data.keys).toEqual(['a']);
  });
});
