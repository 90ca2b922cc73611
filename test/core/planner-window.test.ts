import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiClients } from '../../lib/core/engine/api-clients';
import { applyPlan } from '../../lib/core/engine/applier';
import { ResourceHandler, Spec } from '../../lib/core/engine/handler';
import { inOrderWindowed, planStack } from '../../lib/core/engine/planner';
import { registerResource } from '../../lib/core/engine/registry';
import { registerApiProfile } from '../../lib/core/http/api-profile';
import { DesiredResource, DesiredStack } from '../../lib/core/model';
import { LocalBackend } from '../../lib/core/state/local-backend';
import { StateStore } from '../../lib/core/state/state-store';

process.env.CONVERGE_STATE_KEY = '1d4afacf2d7e7574c8cd2c23ba7987bfc83e9087a65f80149854a5d020564d9b';
process.env.FAKE_ADDR = 'http://127.0.0.1:9';
process.env.FAKE_TOKEN = 't';
registerApiProfile({
  api: 'secrets', variables: { addressEnv: 'FAKE_ADDR', tokenEnv: 'FAKE_TOKEN' }, tokenHeaders: { names: ['X-Fake-Token'] }, rateLimit: 0,
  tls: { ca: 'FAKE_CACERT', cert: 'FAKE_CLIENT_CERT', key: 'FAKE_CLIENT_KEY', skipVerify: 'FAKE_SKIP_VERIFY' },
  probe: { path: '/', prefix: '', judge: () => undefined },
});

// An in-memory API (its handler sends no request), counting reads.
const store = new Map<string, Spec>();
let reads = 0;
const fake: ResourceHandler = {
  kind: 'test.Windowed', api: 'secrets',
  naturalId: (spec) => String(spec.name),
  read: async (_ctx, id) => {
    reads++;
    await null;
    return store.has(id) ? { fields: store.get(id)!, outputs: { id, ref: `ref-${id}` } } : undefined;
  },
  create: async (_ctx, spec) => {
    store.set(String(spec.name), spec);
    return { id: String(spec.name), outputs: { id: spec.name, ref: `ref-${spec.name}` } };
  },
  update: async (_ctx, id, spec) => { store.set(id, spec); return { id }; },
  delete: async (_ctx, id) => { store.delete(id); },
};
registerResource(fake);

const res = (name: string, deps: string[] = [], extra: Spec = {}): DesiredResource => ({
  kind: 'test.Windowed', spec: { name, ...extra }, dependsOn: deps, removalPolicy: 'destroy', path: `s/${name}`,
  provider: { api: 'secrets', addressEnv: 'FAKE_ADDR', tokenEnv: 'FAKE_TOKEN' },
});

describe('planning a stack larger than the objects planned at once', () => {
  test('every object is planned, in address order, its references read from objects far beyond the window', async () => {
    // 600 objects (more than the 160 planned at once at parallelism 10); the first 300 reference one 300 places later.
    const n = 600;
    const resources: Record<string, DesiredResource> = {};
    for (let i = 0; i < n; i++) {
      const name = `o${i}`;
      resources[name] = i < n / 2 ? res(name, [`o${i + n / 2}`], { parent: { $ref: `o${i + n / 2}`, attr: 'ref' } }) : res(name);
    }
    const desired: DesiredStack = { version: 1, stack: 's', resources };
    const state = await StateStore.open(new LocalBackend(fs.mkdtempSync(path.join(os.tmpdir(), 'planner-window-'))), 's');
    const clients = new ApiClients();
    const expectedOrder = Array.from({ length: n }, (_, i) => `o${i}`);

    const first = await planStack(desired, state, clients);
    expect(first.items.map((i) => i.address)).toEqual(expectedOrder);
    expect(first.items.every((i) => i.action === 'create')).toBe(true);
    const result = await applyPlan(first, state, clients, { parallelism: 10 });
    expect(result.failed).toEqual([]);
    expect(store.get('o0')!.parent).toBe(`ref-o${n / 2}`);

    reads = 0;
    const again = await planStack(desired, state, clients);
    await clients.close();
    expect(again.items.map((i) => i.address)).toEqual(expectedOrder);
    // A reference unresolved (an object beyond the window not yet read) would show as a change.
    expect(again.items.filter((i) => i.action !== 'noop')).toEqual([]);
    expect(reads).toBe(n);
  });
});

describe('inOrderWindowed', () => {
  test('gives results in the order of the keys, however they settle, with never more than the window unsettled', async () => {
    const keys = Array.from({ length: 50 }, (_, i) => `k${i}`);
    let unsettled = 0;
    let most = 0;
    const started: string[] = [];
    const out = await inOrderWindowed(keys, async (k) => {
      started.push(k);
      unsettled++;
      most = Math.max(most, unsettled);
      // Later keys settle sooner: the results still come in key order.
      for (let i = 0; i < 50 - Number(k.slice(1)) % 7; i++) await null;
      unsettled--;
      return k.toUpperCase();
    }, 4);
    expect(out).toEqual(keys.map((k) => k.toUpperCase()));
    expect(started).toEqual(keys);
    expect(most).toBe(4);
  });

  test('rejects with the first failure and starts nothing after it; a synchronous throw is a rejection', async () => {
    const started: string[] = [];
    const keys = Array.from({ length: 20 }, (_, i) => `k${i}`);
    await expect(inOrderWindowed(keys, (k) => {
      started.push(k);
      if (k === 'k5') throw new Error('k5 failed');
      return new Promise((r) => setImmediate(() => r(k)));
    }, 3)).rejects.toThrow('k5 failed');
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5']);
  });

  test('an empty list is an empty result', async () => {
    await expect(inOrderWindowed([], async () => 1, 3)).resolves.toEqual([]);
  });
});
