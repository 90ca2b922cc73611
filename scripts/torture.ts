// The long crash run of docs/reliability.md: `npx tsx scripts/torture.ts --rounds 50 [--emulator-every 5] [--scale 1] [--seed S]`.
// Builds a mixed stack of every sampled kind, kills `converge apply` with SIGKILL at random moments
// (and the emulator every few rounds), then checks each object exists once and state matches the APIs.
import { cliAsync, synthApp, tempDir } from '../test/support/harness';
import { buildMixedStack, countSamples, PLANTED_ENV, sampleCounts, sampleEmulatorArgs, seedSampleWorld } from '../test/support/kind-samples';
import { startPostgres } from '../test/support/postgres';
import { EmulatorProcess, torture } from '../test/support/torture';

async function main(): Promise<void> {
  const arg = (name: string, d: number) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : d;
  };
  const rounds = arg('--rounds', 50);
  const emulatorEvery = arg('--emulator-every', 5);
  const scale = arg('--scale', 1);
  // The kill delays' seed (default CONVERGE_FAULT_SEED, else a new one): printed, and the same seed gives the same delays.
  const seed = process.argv.includes('--seed') ? process.argv[process.argv.indexOf('--seed') + 1] : undefined;
  const pg = await startPostgres();
  const emulator = await EmulatorProcess.start(['--latency-ms', '3', ...sampleEmulatorArgs(scale)]);
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', CONVERGE_DIR: `${tempDir()}/.converge`, CONVERGE_STATE_KEY: process.env.CONVERGE_STATE_KEY, ...PLANTED_ENV };
  try {
    await seedSampleWorld(emulator.env, scale, pg.url);
    const dir = synthApp((stack) => buildMixedStack(stack, scale), 'torture');
    const started = Date.now();
    const report = await torture({ synthDir: dir, env, emulator, rounds, emulatorEvery, maxDelayMs: 1500, seed, log: (m) => console.log(m) });
    const counts = await countSamples(emulator.env, scale);
    const expected = sampleCounts(scale);
    const all = { ...env, ...emulator.env };
    const plan = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], all);
    const refresh = await cliAsync(['refresh', '--synth-dir', dir], all);
    const drifted = /0 gone, 0 drifted/.test(refresh.stdout) ? 0 : refresh.stdout.trim();
    const ok = report.final.status === 0 && JSON.stringify(counts) === JSON.stringify(expected) && plan.status === 0 && drifted === 0;
    console.log(JSON.stringify({ seed: report.seed, rounds, killedMidApply: report.killedMidApply, emulatorRestarts: report.emulatorRestarts,
      kinds: Object.keys(expected).length, objects: Object.values(expected).reduce((a, b) => a + b, 0), seconds: Math.round((Date.now() - started) / 1000),
      finalApply: report.final.status, objectsOnApis: counts, expected, finalPlanExit: plan.status, refreshDrifted: drifted, ok }, null, 2));
    process.exitCode = ok ? 0 : 1;
  } finally {
    await emulator.stop();
    await pg.stop();
  }
}

void main();
