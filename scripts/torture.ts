// The long crash run of docs/reliability.md: `npx tsx scripts/torture.ts --rounds 50 [--emulator-every 5]`.
// Builds a mixed stack of every sampled kind, kills `converge apply` with SIGKILL at random moments
// (and the emulator every few rounds), then checks each object exists once and state matches the APIs.
import { cliAsync, synthApp, tempDir } from '../test/support/harness';
import { buildMixedStack, KIND_SAMPLES } from '../test/support/kind-samples';
import { countObjects, EmulatorProcess, torture } from '../test/support/torture';

async function main(): Promise<void> {
  const arg = (name: string, d: number) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : d;
  };
  const rounds = arg('--rounds', 50);
  const emulatorEvery = arg('--emulator-every', 5);
  const emulator = await EmulatorProcess.start(['--latency-ms', '3']);
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', CONVERGE_DIR: `${tempDir()}/.converge`, CONVERGE_STATE_KEY: process.env.CONVERGE_STATE_KEY,
    PLANTED_OAUTH_TOKEN: process.env.PLANTED_OAUTH_TOKEN, PLANTED_KV_PASSWORD: process.env.PLANTED_KV_PASSWORD };
  try {
    const dir = synthApp((stack) => buildMixedStack(stack), 'torture');
    const report = await torture({ synthDir: dir, env, emulator, rounds, emulatorEvery, maxDelayMs: 1500, log: (m) => console.log(m) });
    const counts = await countObjects(emulator.env);
    const expected = Object.fromEntries(Object.entries(KIND_SAMPLES).map(([k, s]) => [k, k.startsWith('platform.') ? KIND_SAMPLES['platform.Organization'].weight : s.weight]));
    const plan = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], { ...env, ...emulator.env });
    const ok = report.final.status === 0 && JSON.stringify(counts) === JSON.stringify(expected) && plan.status === 0;
    console.log(JSON.stringify({ rounds, killedMidApply: report.killedMidApply, emulatorRestarts: report.emulatorRestarts,
      finalApply: report.final.status, objectsOnApis: counts, expected, finalPlanExit: plan.status, ok }, null, 2));
    process.exitCode = ok ? 0 : 1;
  } finally {
    await emulator.stop();
  }
}

void main();
