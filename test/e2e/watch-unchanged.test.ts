import { App, TerraformStack } from 'cdktf';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import { ServiceDefaults } from '../../lib/mesh/config-entry/service-defaults';
import { MeshProtocol } from '../../lib/mesh/shared/mesh-types';
import { Organization } from '../../lib/platform/organization/organization';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, tempDir, TestWorld } from '../support/harness';
import { startWatch, WatchEvent, WatchProcess } from '../support/watch-process';

// `converge watch` does not diff again what it read as it was: an object whose declaration, state
// record and API answer are those of the last cycle keeps its plan item (the cycle event says how
// many objects were diffed and how many were not). Anything that changes is still diffed and reported.
// The real CLI in its own process against the emulator over HTTP.

const SECRET = 'unchanged-secret-5b1e0c93';
const OBJECTS = 4;

describe('converge watch: cycles where nothing changed', () => {
  let world: TestWorld;
  const watchers: WatchProcess[] = [];
  beforeAll(async () => { world = await startWorld({}, { UNCHANGED_PASSWORD: SECRET }); });
  afterEach(async () => { await Promise.all(watchers.splice(0).map((w) => w.stop('SIGKILL'))); });
  afterAll(async () => { await world.stop(); });

  const watch = (args: string[]) => {
    const w = startWatch(args, world.env);
    watchers.push(w);
    return w;
  };
  const app = (stack: string, dir: string, colour = 'blue') => {
    const a = new App({ outdir: dir });
    const s = new TerraformStack(a, stack);
    new Organization(s, 'org', { name: `${stack}-org`, email: 'ops@example.com' });
    new KvSecret(s, 'kv', { path: `${stack}/plain`, data: { colour } });
    new KvSecret(s, 'secret', { path: `${stack}/db`, data: { password: SecretValue.fromEnv('UNCHANGED_PASSWORD') } });
    new ServiceDefaults(s, 'web', { name: `${stack}-web`, protocol: MeshProtocol.HTTP });
    a.synth();
    return dir;
  };
  const apply = async (dir: string) => {
    const r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  };
  const secrets = (method: string, p: string, body?: unknown) => fetch(`${world.env.SECRETS_ADDR}/v1/${p}`, {
    method, headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const kvData = async (p: string) => ((await (await secrets('GET', `secret/data/${p}`)).json()) as { data: { data: Record<string, string> } }).data.data;
  const putEntry = (entry: Record<string, unknown>) => fetch(`${world.env.MESH_HTTP_ADDR}/v1/config`, {
    method: 'PUT', headers: { 'x-mesh-token': world.env.MESH_HTTP_TOKEN! }, body: JSON.stringify(entry),
  });
  const of = (stack: string, event: string, address?: string) => (e: WatchEvent) => e.stack === stack && e.event === event && (address === undefined || e.address === address);
  const fullCycle = (stack: string) => (e: WatchEvent) => of(stack, 'cycle')(e) && e.scope === 'full' && e.outcome === 'ok';
  /** The next `n` whole cycles that start after the events seen so far. */
  const nextCycles = async (w: WatchProcess, stack: string, n: number) => {
    const out: WatchEvent[] = [];
    // The cycle in flight may have read the API before the caller's change: it is not counted.
    let from = (await w.waitFor(fullCycle(stack), w.events.length), w.events.length);
    while (out.length < n) {
      const e = await w.waitFor(fullCycle(stack), from);
      from = w.events.indexOf(e) + 1;
      out.push(e);
    }
    return out;
  };

  test('diffs each object once, then only what changed: drift after unchanged cycles is still reported, once', async () => {
    const dir = app('same', tempDir('converge-watch-same-'));
    await apply(dir);
    const w = watch(['--synth-dir', dir, '--interval', '0.2']);
    const first = await w.waitFor(fullCycle('same'));
    expect(first).toMatchObject({ diffed: OBJECTS, unchangedSkipped: 0 });
    // Nothing changed: nothing is diffed, every object keeps its plan item.
    const unchanged = await nextCycles(w, 'same', 3);
    // (The same reads as ever: only the diff is skipped.)
    for (const c of unchanged) expect(c).toMatchObject({ diffed: 0, unchangedSkipped: OBJECTS, requests: unchanged[0].requests });
    expect(w.events.filter((e) => e.event === 'drift')).toEqual([]);

    // Drift after those unchanged cycles: its new answer is diffed and the drift reported.
    const before = w.events.length;
    expect((await secrets('POST', 'secret/data/same/plain', { data: { colour: 'red' } })).status).toBe(200);
    expect((await w.waitFor(of('same', 'drift', 'kv'), before)).changes).toEqual([{ path: 'data.colour', sensitive: true }]);
    // Then unchanged again: not diffed, the drift still there and not reported again.
    for (const c of await nextCycles(w, 'same', 3)) expect(c).toMatchObject({ diffed: 0, unchangedSkipped: OBJECTS, drifted: 1 });
    expect(w.events.filter(of('same', 'drift', 'kv'))).toHaveLength(1);

    // A mesh entry changed and put back by someone else: both answers diffed, drift and its end reported.
    expect((await putEntry({ Kind: 'service-defaults', Name: 'same-web', Protocol: 'grpc' })).status).toBe(200);
    await w.waitFor(of('same', 'drift', 'web'));
    expect((await putEntry({ Kind: 'service-defaults', Name: 'same-web', Protocol: 'http' })).status).toBe(200);
    await w.waitFor(of('same', 'drift-resolved', 'web'));

    // A new synth of the app: every object is diffed again, and the change is reported (not written as drift).
    const synthAt = w.events.length;
    app('same', dir, 'green');
    const changed = await w.waitFor(of('same', 'app-changed'), synthAt);
    expect(changed.addresses).toEqual(['kv']);
    const cycle = await w.waitFor(fullCycle('same'), w.events.indexOf(changed));
    expect(cycle).toMatchObject({ diffed: OBJECTS });
    for (const c of await nextCycles(w, 'same', 2)) expect(c).toMatchObject({ diffed: 0, unchangedSkipped: OBJECTS });
    expect(w.events.filter(of('same', 'app-changed'))).toHaveLength(1);
    expect(await w.stop()).toBe(0);
    expect((await kvData('same/plain')).colour).toBe('red');
    expect(w.output()).not.toContain(SECRET);
  });

  test('--on-drift revert: drift after unchanged cycles is written back, then cycles are unchanged again', async () => {
    const dir = app('back', tempDir('converge-watch-back-'));
    await apply(dir);
    const w = watch(['--synth-dir', dir, '--interval', '0.2', '--on-drift', 'revert']);
    await w.waitFor(fullCycle('back'));
    for (const c of await nextCycles(w, 'back', 2)) expect(c).toMatchObject({ diffed: 0, unchangedSkipped: OBJECTS });

    const before = w.events.length;
    expect((await secrets('POST', 'secret/data/back/db', { data: { password: 'changed-outside' } })).status).toBe(200);
    const reverted = await w.waitFor(of('back', 'reverted', 'secret'), before);
    expect(await kvData('back/db')).toEqual({ password: SECRET });
    // The write changed the state: the cycle after the one that wrote diffs every object again, the ones after none.
    // (Counted from the revert event, not from now: the reverting cycle may have ended while the data was read.)
    const cycles: WatchEvent[] = [];
    for (let from = w.events.indexOf(reverted) + 1; cycles.length < 4;) {
      const e = await w.waitFor(fullCycle('back'), from);
      from = w.events.indexOf(e) + 1;
      cycles.push(e);
    }
    const next = cycles.slice(1);
    expect(next[0]).toMatchObject({ diffed: OBJECTS });
    expect(next.slice(1)).toEqual([expect.objectContaining({ diffed: 0, unchangedSkipped: OBJECTS }), expect.objectContaining({ diffed: 0, unchangedSkipped: OBJECTS })]);
    expect(w.events.filter(of('back', 'reverted'))).toHaveLength(1);
    expect(await w.stop()).toBe(0);
    expect(w.output()).not.toContain(SECRET);
    expect(w.output()).not.toContain('changed-outside');
  });
});
