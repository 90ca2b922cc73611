import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiClients } from '../../lib/core/engine/api-clients';
import { applyPlan } from '../../lib/core/engine/applier';
import { ResourceHandler, Spec } from '../../lib/core/engine/handler';
import { planStack } from '../../lib/core/engine/planner';
import { registerDataSource, registerResource } from '../../lib/core/engine/registry';
import { registerApiProfile } from '../../lib/core/http/api-profile';
import { DesiredResource, DesiredStack } from '../../lib/core/model';
import { LocalBackend } from '../../lib/core/state/local-backend';
import { RecordChange, StateDocument, StateRecord } from '../../lib/core/state/state-model';
import { StateStore } from '../../lib/core/state/state-store';

process.env.CONVERGE_STATE_KEY = '1d4afacf2d7e7574c8cd2c23ba7987bfc83e9087a65f80149854a5d020564d9b'; // 32 bytes as hex, as the key rules require
process.env.FAKE_ADDR = 'http://127.0.0.1:9';
process.env.FAKE_TOKEN = 't';
// The engine alone, without a domain: the test kind's API is described here (its handler sends no request).
registerApiProfile({
  api: 'secrets', variables: { addressEnv: 'FAKE_ADDR', tokenEnv: 'FAKE_TOKEN' }, tokenHeaders: { names: ['X-Fake-Token'] }, rateLimit: 0,
  tls: { ca: 'FAKE_CACERT', cert: 'FAKE_CLIENT_CERT', key: 'FAKE_CLIENT_KEY', skipVerify: 'FAKE_SKIP_VERIFY' },
  probe: { path: '/', prefix: '', judge: () => undefined },
});

// An in-memory API behind a test kind, recording the order of writes.
const store = new Map<string, Spec>();
const log: string[] = [];
let failOn: string | undefined;
/** Called as each create is sent, before it does anything. */
let beforeCreate: ((name: string) => Promise<void>) | undefined;
const fake: ResourceHandler = {
  kind: 'test.Fake', api: 'secrets',
  naturalId: (spec) => String(spec.name),
  read: async (_ctx, id) => (store.has(id) ? { fields: store.get(id)!, outputs: { id, ref: `ref-${id}` } } : undefined),
  create: async (_ctx, spec) => {
    await beforeCreate?.(String(spec.name));
    await new Promise((r) => setTimeout(r, 5));
    if (spec.name === failOn) throw new Error(`create of ${spec.name} failed`);
    log.push(`create ${spec.name}`);
    store.set(String(spec.name), spec);
    return { id: String(spec.name), outputs: { id: spec.name, ref: `ref-${spec.name}` } };
  },
  update: async (_ctx, id, spec) => { log.push(`update ${id}`); store.set(id, spec); return { id }; },
  delete: async (_ctx, id) => { log.push(`delete ${id}`); store.delete(id); },
};
registerResource(fake);
// A kind whose identity the server assigns: found by its name after a crash.
registerResource({
  ...fake, kind: 'test.Assigned', naturalId: () => undefined,
  uniqueFindKey: true,
  find: async (_ctx, spec) => (store.has(`id-${spec.name}`) ? [{ id: `id-${spec.name}` }] : []),
});
registerDataSource({
  kind: 'test.FakeRead', api: 'secrets',
  read: async (_ctx, spec) => {
    const found = store.get(String(spec.name));
    if (!found) throw new Error(`no ${spec.name}`);
    return { seen: found.name };
  },
});

const res = (name: string, deps: string[] = [], extra: Spec = {}): DesiredResource => ({
  kind: 'test.Fake', spec: { name, ...extra }, dependsOn: deps, removalPolicy: 'destroy', path: `s/${name}`,
  provider: { api: 'secrets', addressEnv: 'FAKE_ADDR', tokenEnv: 'FAKE_TOKEN' },
});
const stack = (resources: Record<string, DesiredResource>): DesiredStack => ({ version: 1, stack: 's', resources });

async function run(desired: DesiredStack, state: StateStore, destroy = false) {
  const clients = new ApiClients();
  const plan = await planStack(desired, state, clients, { destroy });
  const result = await applyPlan(plan, state, clients, { parallelism: 4 });
  await clients.close();
  return { plan, result };
}

describe('applier', () => {
  beforeEach(() => { store.clear(); log.length = 0; failOn = undefined; beforeCreate = undefined; });

  test('creates in dependency order, resolves references, destroys in reverse order', async () => {
    const state = await StateStore.open(new LocalBackend(fs.mkdtempSync(path.join(os.tmpdir(), 'applier-'))), 's');
    const desired = stack({
      a: res('a'),
      b: res('b', ['a'], { parent: { $ref: 'a', attr: 'ref' } }),
      c: res('c', ['b']),
    });
    const { plan, result } = await run(desired, state);
    expect(plan.items.map((i) => i.action)).toEqual(['create', 'create', 'create']);
    expect(log).toEqual(['create a', 'create b', 'create c']);
    expect(store.get('b')!.parent).toBe('ref-a');
    expect(result.failed).toEqual([]);
    expect(state.record('b')!.spec.parent).toBe('ref-a');

    log.length = 0;
    await run(desired, state, true);
    expect(log).toEqual(['delete c', 'delete b', 'delete a']);
    expect(Object.keys(state.records)).toEqual([]);
  });

  test('after a failure, dependents are skipped and independent branches go on', async () => {
    const state = await StateStore.open(new LocalBackend(fs.mkdtempSync(path.join(os.tmpdir(), 'applier-'))), 's');
    failOn = 'a';
    const { result } = await run(stack({ a: res('a'), b: res('b', ['a']), x: res('x'), y: res('y', ['x']) }), state);
    expect(result.failed.map((f) => f.address)).toEqual(['a']);
    expect(result.skipped).toEqual([{ address: 'b', action: 'create', because: 'a dependency failed' }]);
    expect(result.done.map((d) => d.address).sort()).toEqual(['x', 'y']);
    // The create was refused for certain (not a lost answer): it leaves no intent, and nothing else.
    expect(state.record('a')).toBeUndefined();
    expect(state.record('b')).toBeUndefined();
  });

  test('a data source on an object this apply creates is read during the apply', async () => {
    const state = await StateStore.open(new LocalBackend(fs.mkdtempSync(path.join(os.tmpdir(), 'applier-'))), 's');
    const read: DesiredResource = { ...res('a'), kind: 'test.FakeRead', dataSource: true, dependsOn: ['a'], path: 's/read' };
    const { plan, result } = await run(stack({ a: res('a'), read }), state);
    expect(plan.items.find((i) => i.address === 'read')).toMatchObject({ action: 'read', reason: expect.stringMatching(/during apply/) });
    expect(result.failed).toEqual([]);
    expect(state.record('read')!.outputs).toEqual({ seen: 'a' });
  });

  test('a reference still unknown at apply names the construct path, the field and the attribute referenced', async () => {
    const state = await StateStore.open(new LocalBackend(fs.mkdtempSync(path.join(os.tmpdir(), 'applier-'))), 's');
    // The data source's read answers no `rotated` (a server naming the field otherwise): b cannot be written.
    const read: DesiredResource = { ...res('a'), kind: 'test.FakeRead', dataSource: true, dependsOn: ['a'], path: 's/read' };
    const b = res('b', ['read'], { settings: { when: { $ref: 'read', attr: 'rotated' } } });
    const { result } = await run(stack({ a: res('a'), read, b }), state);
    expect(result.failed.map((f) => f.address)).toEqual(['b']);
    const message = String(result.failed[0].error);
    expect(message).toContain('s/b: a referenced value is still unknown');
    expect(message).toContain('settings.when refers to read.rotated');
    expect(store.has('b')).toBe(false);
  });

  test('destroying a create interrupted before its server-assigned id was recorded finds and deletes the object', async () => {
    const state = await StateStore.open(new LocalBackend(fs.mkdtempSync(path.join(os.tmpdir(), 'applier-'))), 's');
    store.set('id-z', { name: 'z' });
    await state.put('z', { kind: 'test.Assigned', status: 'creating', id: '', spec: { name: 'z' }, hmacs: {}, outputs: {}, dependsOn: [],
      removalPolicy: 'destroy', provider: { api: 'secrets', addressEnv: 'FAKE_ADDR', tokenEnv: 'FAKE_TOKEN' } });
    // The app still declares the provider the record names (objects only in state are reached through the app's providers).
    const { plan, result } = await run(stack({ other: res('other') }), state, true);
    expect(plan.items).toEqual([expect.objectContaining({ address: 'z', action: 'delete', id: 'id-z' })]);
    expect(result.failed).toEqual([]);
    expect(log).toEqual(['delete id-z']);
    expect(store.has('id-z')).toBe(false);
  });

  test('an interrupted create (intent in state, object on the API) is adopted, not duplicated', async () => {
    const state = await StateStore.open(new LocalBackend(fs.mkdtempSync(path.join(os.tmpdir(), 'applier-'))), 's');
    store.set('a', { name: 'a' });
    await state.put('a', { kind: 'test.Fake', status: 'creating', id: 'a', spec: {}, hmacs: {}, outputs: {}, dependsOn: [], removalPolicy: 'destroy',
      provider: { api: 'secrets', addressEnv: 'FAKE_ADDR', tokenEnv: 'FAKE_TOKEN' } });
    const { plan } = await run(stack({ a: res('a') }), state);
    expect(plan.items[0].action).toBe('adopt');
    expect(log).toEqual([]);
    expect(state.record('a')!.status).toBe('created');
  });

  test('state writes are shared: the intents of creates ready together, a create\'s record and the next create\'s intent; each intent is on disk before its create is sent', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'applier-'));
    // A local backend that numbers its durable writes (journal appends and whole writes) and notes which one carried each intent.
    let writes = 0;
    const intentWrite = new Map<string, number>();
    const noteIntents = (records: (StateRecord | undefined)[], addresses: string[]): void => records.forEach((r, i) => {
      if (r?.status === 'creating' && !intentWrite.has(addresses[i])) intentWrite.set(addresses[i], writes);
    });
    class Counting extends LocalBackend {
      public async append(st: string, lineage: string, serial: number, changes: RecordChange[]): Promise<void> {
        writes++;
        noteIntents(changes.map((c) => c.record), changes.map((c) => c.address));
        return super.append(st, lineage, serial, changes);
      }
      public async write(doc: StateDocument): Promise<void> {
        writes++;
        noteIntents(Object.values(doc.resources), Object.keys(doc.resources));
        return super.write(doc);
      }
    }
    const state = await StateStore.open(new Counting(dir), 's');
    // What a crash at the moment of each create would leave: the state another process reads from disk.
    const onDisk: Record<string, string | undefined> = {};
    beforeCreate = async (name) => { onDisk[name] = (await new LocalBackend(dir).read('s'))?.resources[name]?.status; };
    const n = 30;
    const names = Array.from({ length: n }, (_, i) => `g${i}`);
    const clients = new ApiClients();
    try {
      // All creates at once (parallelism n): their intents are one durable write.
      const desired = stack(Object.fromEntries(names.map((x) => [x, res(x)])));
      const result = await applyPlan(await planStack(desired, state, clients), state, clients, { parallelism: n });
      expect(result.failed).toEqual([]);
      expect(onDisk).toEqual(Object.fromEntries(names.map((x) => [x, 'creating'])));
      expect(new Set(names.map((x) => intentWrite.get(x))).size).toBe(1);
      expect(writes).toBeLessThan(n);

      // One at a time (parallelism 1): a create's record and the intent of the create that takes its slot share a write.
      writes = 0;
      const more = Array.from({ length: 10 }, (_, i) => `h${i}`);
      const desired2 = stack(Object.fromEntries([...names, ...more].map((x) => [x, res(x)])));
      const result2 = await applyPlan(await planStack(desired2, state, clients), state, clients, { parallelism: 1 });
      expect(result2.failed).toEqual([]);
      expect(more.map((x) => onDisk[x])).toEqual(more.map(() => 'creating'));
      // The first intent, 9 records each with the next intent, the last record, the final whole write (each change apart: 21).
      expect(writes).toBeLessThanOrEqual(more.length + 2);
    } finally {
      await clients.close();
    }
  });
});
