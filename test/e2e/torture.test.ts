import { registeredKinds } from '../../lib/core/engine/registry';
import '../../lib/platform/handlers';
import '../../lib/secrets/handlers';
import '../../lib/mesh/handlers';
import { cliAsync, synthApp, tempDir } from '../support/harness';
import { buildMixedStack, KIND_SAMPLES, KINDS_WITHOUT_SAMPLE } from '../support/kind-samples';
import { countObjects, EmulatorProcess, torture } from '../support/torture';

// The long run is `npx tsx scripts/torture.ts --rounds 50` (docs/reliability.md).
describe('crash torture', () => {
  test('every registered resource kind has a sample or a stated reason not to', () => {
    for (const kind of registeredKinds().resources) {
      expect({ kind, covered: kind in KIND_SAMPLES || kind in KINDS_WITHOUT_SAMPLE }).toEqual({ kind, covered: true });
    }
  });

  test('SIGKILL at random moments, the emulator killed and restarted too: each object once, state matches the APIs', async () => {
    const emulator = await EmulatorProcess.start(['--latency-ms', '3']);
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', CONVERGE_DIR: `${tempDir()}/.converge`, CONVERGE_STATE_KEY: process.env.CONVERGE_STATE_KEY,
      PLANTED_OAUTH_TOKEN: process.env.PLANTED_OAUTH_TOKEN, PLANTED_KV_PASSWORD: process.env.PLANTED_KV_PASSWORD };
    try {
      const dir = synthApp((stack) => buildMixedStack(stack), 'torture');
      const report = await torture({ synthDir: dir, env, emulator, rounds: 6, emulatorEvery: 3, maxDelayMs: 1200 });
      expect(report.killedMidApply).toBeGreaterThan(0);
      expect(report.final.stderr).not.toMatch(/Error/);
      expect(report.final.status).toBe(0);
      const expected = Object.fromEntries(Object.entries(KIND_SAMPLES).map(([k, s]) => [k, k.startsWith('platform.') ? KIND_SAMPLES['platform.Organization'].weight : s.weight]));
      expect(await countObjects(emulator.env)).toEqual(expected);
      const all = { ...env, ...emulator.env };
      const plan = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], all);
      expect(plan.status).toBe(0);
      const refresh = await cliAsync(['refresh', '--synth-dir', dir], all);
      expect(refresh.stdout).toMatch(/0 gone, 0 drifted/);
      const state = await cliAsync(['state', 'list', '--stack', 'torture'], all);
      expect(state.stdout.trim().split('\n')).toHaveLength(Object.values(expected).reduce((a, b) => a + b, 0));
    } finally {
      await emulator.stop();
    }
  }, 240_000);
});
