import { registeredKinds } from '../../lib/core/engine/registry';
import { cliAsync, synthApp, tempDir } from '../support/harness';
import {
  buildMixedStack, countSamples, KIND_SAMPLES, PLANTED_ENV, sampleCounts, sampleEmulatorArgs, seedSampleWorld,
} from '../support/kind-samples';
import { startPostgres } from '../support/postgres';
import { EmulatorProcess, torture } from '../support/torture';
import { registerAllKinds } from '../../lib/kinds';

registerAllKinds();

// The long run is `npx tsx scripts/torture.ts --rounds 50` (docs/reliability.md); here a smaller stack and fewer rounds.
const SCALE = 0.5;

describe('crash torture', () => {
  test('every registered resource kind has a sample', () => {
    for (const kind of registeredKinds().resources) expect({ kind, covered: kind in KIND_SAMPLES }).toEqual({ kind, covered: true });
  });

  test('SIGKILL at random moments, the emulator killed and restarted too: each object once, state matches the APIs', async () => {
    const pg = await startPostgres();
    const emulator = await EmulatorProcess.start(['--latency-ms', '3', ...sampleEmulatorArgs(SCALE)]);
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', CONVERGE_DIR: `${tempDir()}/.converge`, CONVERGE_STATE_KEY: process.env.CONVERGE_STATE_KEY, ...PLANTED_ENV };
    try {
      await seedSampleWorld(emulator.env, SCALE, pg.url);
      const dir = synthApp((stack) => buildMixedStack(stack, SCALE), 'torture');
      const report = await torture({ synthDir: dir, env, emulator, rounds: 5, emulatorEvery: 3, maxDelayMs: 1000 });
      expect(report.killedMidApply).toBeGreaterThan(0);
      expect(report.final.stderr).not.toMatch(/Error/);
      expect(report.final.status).toBe(0);
      const expected = sampleCounts(SCALE);
      expect(await countSamples(emulator.env, SCALE)).toEqual(expected);
      const all = { ...env, ...emulator.env };
      const plan = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], all);
      expect(plan.status).toBe(0);
      const refresh = await cliAsync(['refresh', '--synth-dir', dir], all);
      expect(refresh.stdout).toMatch(/0 gone, 0 drifted/);
      const state = await cliAsync(['state', 'list', '--stack', 'torture'], all);
      // Every managed object once (the lookups of existing objects the samples read are kept in state too).
      const managed = state.stdout.trim().split('\n').filter((l) => !l.split('\t')[1].startsWith('lookup:'));
      expect(managed).toHaveLength(Object.values(expected).reduce((a, b) => a + b, 0));
    } finally {
      await emulator.stop();
      await pg.stop();
    }
  });
});
