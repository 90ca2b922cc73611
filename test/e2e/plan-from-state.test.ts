import * as fs from 'fs';
import * as path from 'path';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// Issue 37 (memory and scale): `plan --refresh false` plans every object from state alone, at once, with
// values shared between the app, the plan and state (providers, empty dependencies, specs without secrets).
// Through the real CLI (dist/) against the emulator over HTTP.
describe('a plan from state', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  const N = 30;
  /** N secrets; `changed` holds other data; `dependent` takes s1's version (a reference, so a dependency it did not have). */
  const app = (changed?: number, dependent?: number) => synthApp((s) => {
    const secrets: KvSecret[] = [];
    for (let i = 0; i < N; i++) {
      const data: Record<string, string> = { n: i === changed ? `${i}-changed` : String(i) };
      secrets.push(new KvSecret(s, `s${i}`, { path: `pfs/app${i % 3}/s${i}`, data: i === dependent ? { ...data, from: secrets[1].version } : data }));
    }
    new KvSecret(s, 'dst', { path: 'pfs/dst', data: { v: secrets[0].version } });
  }, 'pfs');

  const run = async (args: string[]) => {
    const stats = path.join(world.dir, `stats-${Date.now()}-${Math.random()}.json`);
    const r = await cliAsync(args, { ...world.env, CONVERGE_STATS_FILE: stats });
    const s = JSON.parse(fs.readFileSync(stats, 'utf8')) as { requests: number };
    return { ...r, requests: s.requests };
  };

  test('sends no request, shows what the app changed since the last apply, and resolves references from state', async () => {
    let r = await run(['apply', '--synth-dir', app(), '--auto-approve']);
    expect(r.status).toBe(0);
    r = await run(['plan', '--synth-dir', app(), '--refresh', 'false', '--detailed-exitcode']);
    expect({ status: r.status, requests: r.requests }).toEqual({ status: 0, requests: 0 });
    expect(r.stdout).toMatch(`No changes. Stack pfs matches the app (${N + 1} objects).`);

    // s3's data changes; s7 takes a reference to s1 (a dependency its record did not have).
    const v2 = app(3, 7);
    // Without the preflight, which asks each API before a run that writes what its token may do (docs/secrets-policy.md).
    r = await run(['plan', '--synth-dir', v2, '--refresh', 'false', '--detailed-exitcode', '--no-preflight']);
    expect({ status: r.status, requests: r.requests }).toEqual({ status: 2, requests: 0 });
    const changed = r.stdout.split('\n').filter((l) => /will be/.test(l)).map((l) => l.trim()).sort();
    expect(changed).toEqual(['~ s3 (secrets.KvSecret) will be updated in place', '~ s7 (secrets.KvSecret) will be updated in place']);
    expect(r.stdout).not.toMatch(/dst|s0 |s1 /);

    // Applied: the records read with shared values are replaced, not changed in place; a plan from state then finds nothing.
    r = await run(['apply', '--synth-dir', v2, '--auto-approve']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const state = JSON.parse(fs.readFileSync(path.join(world.dir, '.converge', 'stacks', 'pfs', 'state.json'), 'utf8'));
    expect(state.resources.s7.dependsOn).toEqual(['s1']);
    expect(state.resources.s8.dependsOn).toEqual([]);
    expect(state.resources.s7.spec.data).toEqual({ n: '7', from: 1 });
    r = await run(['plan', '--synth-dir', v2, '--refresh', 'false', '--detailed-exitcode']);
    expect({ status: r.status, requests: r.requests }).toEqual({ status: 0, requests: 0 });
    // A refreshing plan agrees (one metadata read per secret, plus the address check).
    r = await run(['plan', '--synth-dir', v2, '--detailed-exitcode']);
    expect(r.status).toBe(0);
    expect(r.requests).toBeGreaterThan(N);
  });
});
