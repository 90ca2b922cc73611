import { diffAgainstPrior, diffSpec, driftOf, flatten } from '../../lib/core/engine/diff';
import { ResourceHandler } from '../../lib/core/engine/handler';
import { resolveSpec, UNKNOWN } from '../../lib/core/engine/resolve-spec';
import { StateRecord } from '../../lib/core/state/state-model';

process.env.CONVERGE_STATE_KEY = '1d4afacf2d7e7574c8cd2c23ba7987bfc83e9087a65f80149854a5d020564d9b'; // 32 bytes as hex, as the key rules require
process.env.DIFF_SECRET = 's3cret-diff';

const handler: ResourceHandler = {
  kind: 'test.Thing', api: 'secrets', replaceFields: ['path'], sensitiveFields: ['data'],
  naturalId: () => undefined, read: async () => undefined, create: async () => ({ id: 'x' }),
  update: async () => ({ id: 'x' }), delete: async () => undefined,
};
const raw = { path: 'a/b', size: 3, data: { user: 'app', password: { $secret: { env: 'DIFF_SECRET' } } }, tags: ['x', 'y'] };
const resolved = () => resolveSpec(raw, 'stack/thing', () => UNKNOWN);
const record = (over: Partial<StateRecord> = {}): StateRecord => ({
  kind: 'test.Thing', status: 'created', id: 'a/b', spec: resolved().stored, hmacs: resolved().hmacs, outputs: {},
  dependsOn: [], removalPolicy: 'destroy', provider: { api: 'secrets', addressEnv: 'A', tokenEnv: 'T' }, ...over,
});

describe('flatten', () => {
  test('objects and arrays become leaf paths; secrets and empty containers are leaves', () => {
    const f = flatten({ a: { b: 1, c: [1, { d: 2 }] }, e: {}, s: { $secret: { env: 'X' } }, l: [] });
    expect([...f.entries()]).toEqual([['a.b', 1], ['a.c[0]', 1], ['a.c[1].d', 2], ['e', {}], ['s', { $secret: { env: 'X' } }], ['l', []]]);
  });
});

describe('diffSpec', () => {
  test('no change when the actual object matches', () => {
    expect(diffSpec(resolved(), { path: 'a/b', size: 3, data: { user: 'app', password: 's3cret-diff' }, tags: ['x', 'y'] }, record(), handler)).toEqual([]);
  });

  test('each changed field once; sensitive values never carried; replace fields marked', () => {
    const changes = diffSpec(resolved(), { path: 'a/c', size: 4, data: { user: 'app', password: 'other', extra: 'z' }, tags: ['x'] }, record(), handler);
    expect(changes).toEqual([
      { path: 'path', before: 'a/c', after: 'a/b', sensitive: false, replace: true },
      { path: 'size', before: 4, after: 3, sensitive: false, replace: false },
      { path: 'data.password', sensitive: true, replace: false },
      { path: 'data.extra', removed: true, sensitive: true, replace: false },
      { path: 'tags[1]', before: undefined, after: 'y', sensitive: false, replace: false },
    ]);
    expect(JSON.stringify(changes)).not.toContain('s3cret-diff');
  });

  test('a sensitive field added or removed says so, with no value', () => {
    const changes = diffSpec(resolved(), { path: 'a/b', size: 3, data: { user: 'app', extra: 'z' }, tags: ['x', 'y'] }, record(), handler);
    expect(changes).toEqual([
      { path: 'data.password', added: true, sensitive: true, replace: false },
      { path: 'data.extra', removed: true, sensitive: true, replace: false },
    ]);
  });

  test('a write-only secret (not returned by the API) is compared by HMAC with the last apply', () => {
    const actual = { path: 'a/b', size: 3, tags: ['x', 'y'] };
    expect(diffSpec(resolved(), actual, record(), handler)).toEqual([]);
    const changed = record({ hmacs: { 'data.password': 'old' } });
    expect(diffSpec(resolved(), actual, changed, handler)).toEqual([{ path: 'data.password', sensitive: true, replace: false }]);
  });

  test('unknown values (after apply) show as changes', () => {
    const r = resolveSpec({ org: { $ref: 'org', attr: 'id' } }, 'p', () => UNKNOWN);
    expect(r.hasUnknown).toBe(true);
    expect(diffSpec(r, { org: 'old' }, undefined, handler)).toEqual([{ path: 'org', before: 'old', after: undefined, sensitive: false, replace: false, unknown: true }]);
  });
});

describe('driftOf and diffAgainstPrior', () => {
  test('drift compares the actual object with the last apply, secrets by HMAC', () => {
    expect(driftOf({ path: 'a/b', size: 3, data: { user: 'app', password: 's3cret-diff' }, tags: ['x', 'y'] }, record(), handler)).toEqual([]);
    const d = driftOf({ path: 'a/b', size: 5, data: { user: 'app', password: 'changed' }, tags: ['x', 'y'] }, record(), handler);
    expect(d).toEqual([
      { path: 'size', before: 3, after: 5, sensitive: false, replace: false },
      { path: 'data.password', sensitive: true, replace: false },
    ]);
  });

  test('--refresh=false compares with state only', () => {
    expect(diffAgainstPrior(resolved(), record(), handler)).toEqual([]);
    const old = record({ spec: { ...record().spec, size: 2 } });
    expect(diffAgainstPrior(resolved(), old, handler)).toEqual([{ path: 'size', before: 2, after: 3, sensitive: false, replace: false }]);
  });
});
