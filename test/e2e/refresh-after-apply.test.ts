import { cliAsync, synthApp, tempDir } from '../support/harness';
import { buildMixedStack, countSamples, PLANTED_ENV, sampleCounts, sampleEmulatorArgs, seedSampleWorld } from '../support/kind-samples';
import { startPostgres, TestPostgres } from '../support/postgres';
import { EmulatorProcess } from '../support/torture';

// Every registered kind once (the database kinds on a real PostgreSQL), through the real CLI against the emulator: right after an apply,
// `refresh` (which reads without the app) finds nothing drifted and `plan` is a no-op. The samples
// write durations in non-canonical forms ("60m", "3600", "90m") and set-like lists unsorted and
// repeated, as users do.
describe('refresh after apply', () => {
  const SCALE = 0.01;
  let emulator: EmulatorProcess;
  let env: NodeJS.ProcessEnv;
  let pg: TestPostgres;

  beforeAll(async () => {
    pg = await startPostgres();
    emulator = await EmulatorProcess.start(sampleEmulatorArgs(SCALE));
    env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', CONVERGE_DIR: `${tempDir()}/.converge`, CONVERGE_STATE_KEY: process.env.CONVERGE_STATE_KEY, ...PLANTED_ENV };
    await seedSampleWorld(emulator.env, SCALE, pg.url);
  });
  afterAll(async () => { await emulator?.stop(); await pg?.stop(); });

  test('every kind: apply, then refresh reports 0 drifted and plan is a no-op', async () => {
    const dir = synthApp((stack) => buildMixedStack(stack, SCALE), 'fresh');
    const all = { ...env, ...emulator.env };
    const apply = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], all);
    expect(apply.stderr).toBe('');
    expect(apply.status).toBe(0);
    expect(await countSamples(emulator.env, SCALE)).toEqual(sampleCounts(SCALE));
    const refresh = await cliAsync(['refresh', '--synth-dir', dir], all);
    expect(refresh.stdout).toMatch(/0 gone, 0 drifted/);
    expect(refresh.stdout).not.toMatch(/->/);
    const plan = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], all);
    expect(plan.stdout).toMatch(/No changes/);
    expect(plan.status).toBe(0);
  });
});
