import { spawn } from 'child_process';
import * as path from 'path';
import { request } from 'undici';
import { waitForEnvFile } from '../../lib/cli/emulator-env-file';
import { FaultKind, ServedApi } from '../../lib/core/emulator-kit/server';
import { ApiEmulator, EmuResponse, json } from '../../lib/core/emulator-kit/types';
import { CLI, tempDir } from '../support/harness';
import { killDelays } from '../support/torture';

// Injected faults come from a seeded sequence: the same seed and the same requests give the same
// faults (a failure reproduces), another seed others.

/** An API that answers everything 200. */
const echo: ApiEmulator = {
  name: 'echo',
  handle: (): EmuResponse => json(200, { ok: true }),
  mutates: () => false,
  snapshot: () => ({}),
  restore: () => undefined,
};

/** Sends `n` requests one after the other; for each, the fault injected (or "-"). */
async function faultsOf(seed: string | undefined, n = 60, rate = 0.4): Promise<{ seed: string; trace: string[] }> {
  const trace: string[] = Array(n).fill('-');
  let current = 0;
  const served = await ServedApi.start(echo, {
    port: 0, faultRate: rate, faultSeed: seed, faultTimeoutMs: 5, faultRetryAfterSeconds: 0,
    onFault: (k: FaultKind) => { trace[current] = k; },
  });
  try {
    for (current = 0; current < n; current++) {
      await request(`${served.address}/x/${current}`, { method: 'POST', body: '{}', reset: true }).then((r) => r.body.text()).catch(() => undefined);
    }
    return { seed: served.faultSeed!, trace };
  } finally {
    await served.stop();
  }
}

describe('seeded fault injection', () => {
  test('the same seed gives the same faults for the same requests', async () => {
    const first = await faultsOf('seed-a');
    const again = await faultsOf('seed-a');
    expect(again.trace).toEqual(first.trace);
    expect(first.seed).toBe('seed-a');
    // At a 40 % rate over 60 requests, faults of several kinds and answered requests both occur.
    expect(new Set(first.trace.filter((k) => k !== '-')).size).toBeGreaterThan(2);
    expect(first.trace.filter((k) => k === '-').length).toBeGreaterThan(10);
  });

  test('another seed gives other faults', async () => {
    expect((await faultsOf('seed-b')).trace).not.toEqual((await faultsOf('seed-a')).trace);
  });

  test('without a seed one is drawn and told, and replaying it gives the same faults', async () => {
    const drawn = await faultsOf(undefined);
    expect(drawn.seed).toMatch(/^[0-9a-f]{8}$/);
    expect((await faultsOf(drawn.seed)).trace).toEqual(drawn.trace);
  });

  test('no fault rate: no seed and no fault', async () => {
    const none = await faultsOf(undefined, 10, 0);
    expect(none.trace).toEqual(Array(10).fill('-'));
    expect(none.seed).toBeUndefined();
  });
});

describe('converge emulator --fault-seed', () => {
  /** Starts the emulator command, sends `n` requests one after the other; what each got (a status, or "closed"). */
  async function run(args: string[], extraEnv: Record<string, string> = {}, n = 40): Promise<{ printed: string; trace: string[] }> {
    const dir = tempDir('converge-fault-seed-');
    const file = path.join(dir, 'emu.env');
    const child = spawn(CLI, ['emulator', '--platform-port', '0', '--secrets-port', '0', '--mesh-port', '0', '--platform-rate-limit', '0',
      '--fault-rate', '0.5', '--fault-timeout-ms', '5', '--write-env', file, ...args],
    { env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...extraEnv }, stdio: ['ignore', 'pipe', 'inherit'] });
    let printed = '';
    child.stdout!.on('data', (d) => { printed += String(d); });
    try {
      const vars = await waitForEnvFile(file, 60_000);
      const trace: string[] = [];
      for (let i = 0; i < n; i++) {
        const r = await request(`${vars.PLATFORM_ADDRESS}/api/v2/organizations`, { headers: { authorization: `Bearer ${vars.PLATFORM_TOKEN}` }, reset: true })
          .then(async (res) => { await res.body.text(); return String(res.statusCode); }, () => 'closed');
        trace.push(r);
      }
      return { printed, trace };
    } finally {
      await new Promise<void>((r) => { child.once('exit', () => r()); child.kill('SIGTERM'); });
    }
  }

  test('prints the seed; the same seed (option or CONVERGE_FAULT_SEED) replays the faults, another does not', async () => {
    const first = await run(['--fault-seed', 'replay-me']);
    expect(first.printed).toContain('seed replay-me (replay them with --fault-seed replay-me or CONVERGE_FAULT_SEED=replay-me)');
    expect(first.trace.filter((t) => t !== '200').length).toBeGreaterThan(5);
    const again = await run([], { CONVERGE_FAULT_SEED: 'replay-me' });
    expect(again.trace).toEqual(first.trace);
    expect((await run(['--fault-seed', 'another'])).trace).not.toEqual(first.trace);
    const drawn = await run([]);
    const seed = /seed ([0-9a-f]{8}) \(replay/.exec(drawn.printed)?.[1];
    expect(seed).toBeDefined();
    expect((await run(['--fault-seed', seed!])).trace).toEqual(drawn.trace);
  });
});

describe('torture kill delays', () => {
  test('drawn from a seed: the same seed the same delays, another seed others, all within 50 ms + max', () => {
    const a = killDelays('s1', 20, 1000);
    expect(killDelays('s1', 20, 1000)).toEqual(a);
    expect(killDelays('s2', 20, 1000)).not.toEqual(a);
    expect(a.every((d) => Number.isInteger(d) && d >= 50 && d < 1050)).toBe(true);
    expect(new Set(a).size).toBeGreaterThan(10);
  });
});
