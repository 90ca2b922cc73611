import { RemovalPolicy } from '../../lib';
import { MeshProtocol } from '../../lib/mesh/shared/mesh-types';
import { ServiceDefaults } from '../../lib/mesh/config-entry/service-defaults';
import { Organization } from '../../lib/platform/organization/organization';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// 20 % of requests fail: 429 with Retry-After, 500, 503, timeouts, connections dropped before
// and after the write. A plan and an apply of 200 objects still converge, with no duplicate.
// The faults come from a seed, printed: CONVERGE_FAULT_SEED=<seed> replays a failing run's faults.
describe('faults', () => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await startWorld({ faultRate: 0.2, faultTimeoutMs: 1500, faultRetryAfterSeconds: 1 },
      { CONVERGE_TIMEOUT_MS: '1000', CONVERGE_RETRIES: '8' });
    process.stderr.write(`faults.test.ts: injected faults from seed ${world.emulator.faultSeed} (replay with CONVERGE_FAULT_SEED=${world.emulator.faultSeed})\n`);
  });
  afterAll(async () => { await world.stop(); });

  test('apply and plan of 200 objects converge through injected faults', async () => {
    const dir = synthApp((stack) => {
      for (let i = 0; i < 20; i++) new Organization(stack, `org${i}`, { name: `fault-${i}`, email: `f${i}@faults.io`, removalPolicy: RemovalPolicy.DESTROY });
      for (let i = 0; i < 40; i++) new ServiceDefaults(stack, `svc${i}`, { name: `fault-svc-${i}`, protocol: MeshProtocol.HTTP });
      for (let i = 0; i < 140; i++) new KvSecret(stack, `kv${i}`, { path: `faults/s${i}`, data: { n: String(i) } });
    }, 'faults');
    const r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(r.stdout).toMatch(/Apply complete: 200 done, 0 failed, 0 skipped/);
    expect(r.status).toBe(0);
    const retries = Number(/(\d+) retries/.exec(r.stdout)?.[1]);
    expect(retries).toBeGreaterThan(0);
    const injected = Object.values(world.emulator.faults).reduce((a, b) => a + b, 0);
    expect(injected).toBeGreaterThan(20);
    expect(Object.keys(world.emulator.faults).some((k) => k.endsWith('drop-after'))).toBe(true);

    const plan = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env);
    expect(plan.stderr).toBe('');
    expect(plan.status).toBe(0);

    // Each object exactly once (reads go around the faults with retries of our own).
    const get = async (url: string, headers: Record<string, string>): Promise<unknown> => {
      for (;;) {
        const res = await fetch(url, { headers }).catch(() => undefined);
        if (res && res.status === 200) return res.json();
      }
    };
    const orgs = await get(`${world.env.PLATFORM_ADDRESS}/api/v2/organizations?q=fault-`, { authorization: `Bearer ${world.env.PLATFORM_TOKEN}` }) as { data: unknown[] };
    expect(orgs.data).toHaveLength(20);
    const keys = await get(`${world.env.SECRETS_ADDR}/v1/secret/metadata/faults/?list=true`, { 'x-secrets-token': world.env.SECRETS_TOKEN! }) as { data: { keys: string[] } };
    expect(keys.data.keys).toHaveLength(140);
    const entries = await get(`${world.env.MESH_HTTP_ADDR}/v1/config/service-defaults`, { 'x-mesh-token': world.env.MESH_HTTP_TOKEN! }) as unknown[];
    expect(entries.filter((e) => String((e as { Name: string }).Name).startsWith('fault-svc-'))).toHaveLength(40);
  });
});
