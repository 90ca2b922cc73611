// The fault figures of docs/reliability.md: `npx tsx scripts/faults.ts [--rate 0.2] [--seed S]` (after `npm run build`).
// The run of test/e2e/faults.test.ts as a script: 200 objects applied and planned while the emulator
// injects 429 (Retry-After), 500, 503, timeouts and dropped connections; prints what was injected and retried.
import { RemovalPolicy } from '../lib';
import { MeshProtocol } from '../lib/mesh/shared/mesh-types';
import { ServiceDefaults } from '../lib/mesh/config-entry/service-defaults';
import { Organization } from '../lib/platform/organization/organization';
import { KvSecret } from '../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, synthApp } from '../test/support/harness';

async function main(): Promise<void> {
  const i = process.argv.indexOf('--rate');
  const rate = i > 0 ? Number(process.argv[i + 1]) : 0.2;
  // The faults' seed (default CONVERGE_FAULT_SEED, else a new one): printed; the same seed, the same faults.
  const s = process.argv.indexOf('--seed');
  const seed = s > 0 ? process.argv[s + 1] : undefined;
  const world = await startWorld({ faultRate: rate, faultSeed: seed, faultTimeoutMs: 1500, faultRetryAfterSeconds: 1 },
    { CONVERGE_TIMEOUT_MS: '1000', CONVERGE_RETRIES: '8' });
  try {
    const dir = synthApp((stack) => {
      for (let n = 0; n < 20; n++) new Organization(stack, `org${n}`, { name: `fault-${n}`, email: `f${n}@faults.io`, removalPolicy: RemovalPolicy.DESTROY });
      for (let n = 0; n < 40; n++) new ServiceDefaults(stack, `svc${n}`, { name: `fault-svc-${n}`, protocol: MeshProtocol.HTTP });
      for (let n = 0; n < 140; n++) new KvSecret(stack, `kv${n}`, { path: `faults/s${n}`, data: { n: String(n) } });
    }, 'faults');
    const apply = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    const summary = /Apply [^\n]*/.exec(apply.stdout)?.[0];
    const plan = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env);
    const faults = world.emulator.faults;
    const ok = apply.status === 0 && plan.status === 0;
    console.log(JSON.stringify({
      faultRate: rate, faultSeed: world.emulator.faultSeed, objects: 200, applyExit: apply.status, applySummary: summary,
      retriesByConverge: Number(/(\d+) retries/.exec(apply.stdout)?.[1] ?? NaN),
      faultsInjected: Object.values(faults).reduce((a, b) => a + b, 0), faultsByKind: faults, finalPlanExit: plan.status, ok,
    }, null, 2));
    process.exitCode = ok ? 0 : 1;
  } finally {
    await world.stop();
  }
}

void main();
