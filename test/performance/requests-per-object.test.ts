import * as fs from 'fs';
import * as path from 'path';
import { RemovalPolicy } from '../../lib';
import * as mesh from '../../lib/mesh';
import { Organization } from '../../lib/platform/organization/organization';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// Issue 14: each operation costs the fewest requests the API allows (docs/performance.md has the table).
// Counted through the real CLI against the emulator: a regression that adds requests fails here.
describe('requests per object at the API minimum', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  const N = 20;
  // A plan that changes mesh entries also shows what happens to traffic: it reads the mesh's entries
  // (one list per kind, 5 kinds) and one discovery chain, once per plan whatever the number of objects.
  const TRAFFIC_DIFF = 6;
  // A run that writes first asks each API it writes to what the token may do (issue 33: the preflight): one
  // request per API (secrets: sys/capabilities-self for every path; mesh: acl/token/self; platform: the
  // organizations' permissions, not asked for organizations the same run creates).
  const PREFLIGHT = 1;
  const app = (v: string) => synthApp((s) => {
    for (let i = 0; i < N; i++) new KvSecret(s, `kv${i}`, { path: `rq/folder/k${i}`, data: { v } });
    for (let i = 0; i < 5; i++) new Organization(s, `org${i}`, { name: `rq-org-${i}`, email: `o${i}@rq.io`, removalPolicy: RemovalPolicy.DESTROY });
    for (let i = 0; i < 5; i++) new mesh.ServiceDefaults(s, `sd${i}`, { name: `rq-svc-${i}`, protocol: mesh.MeshProtocol.HTTP });
  }, 'rq');
  const run = async (args: string[]) => {
    const stats = path.join(world.dir, `stats-${Date.now()}.json`);
    const r = await cliAsync(args, { ...world.env, CONVERGE_STATS_FILE: stats });
    expect(r.stderr).toBe('');
    const s = JSON.parse(fs.readFileSync(stats, 'utf8')) as { byApi: Record<string, number>; checksByApi: Record<string, number> };
    // Each API's address is checked once per run (docs/security.md): a fixed cost, counted apart.
    for (const [api, n] of Object.entries(s.checksByApi)) expect({ api, checks: n }).toEqual({ api, checks: 1 });
    const byApi = Object.fromEntries(Object.entries(s.byApi).map(([api, n]) => [api, n - (s.checksByApi[api] ?? 0)]).filter(([, n]) => Number(n) > 0));
    return { r, byApi };
  };

  test('create, no-op plan, update, destroy', async () => {
    const v1 = app('1');
    // Create: existence from one folder list, one list page of organizations, one list of the kind's entries; then one write each.
    let { r, byApi } = await run(['apply', '--synth-dir', v1, '--auto-approve']);
    expect(r.status).toBe(0);
    expect(byApi).toEqual({ secrets: 1 + N + PREFLIGHT, platform: 1 + 5, mesh: 1 + 5 + TRAFFIC_DIFF + PREFLIGHT });
    // No-op plan: one metadata read per secret (its data is not read again), one list page, one list.
    ({ r, byApi } = await run(['plan', '--synth-dir', v1, '--detailed-exitcode']));
    expect(r.status).toBe(0);
    expect(byApi).toEqual({ secrets: N, platform: 1, mesh: 1 });
    // Update of every secret's data: the plan's metadata reads, then one cas write each against the version the plan saw.
    ({ r, byApi } = await run(['apply', '--synth-dir', app('2'), '--auto-approve']));
    expect(r.status).toBe(0);
    expect(byApi).toEqual({ secrets: N + N + PREFLIGHT, platform: 1, mesh: 1 });
    // Destroy: one delete each, nothing read (the traffic diff of a destroy has no entries to read from the plan).
    ({ r, byApi } = await run(['destroy', '--synth-dir', app('2'), '--auto-approve']));
    expect(r.status).toBe(0);
    expect(byApi).toEqual({ secrets: N + PREFLIGHT, platform: 5 + PREFLIGHT, mesh: 5 + PREFLIGHT });
  });
});
