import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

interface Load { start: number; end: number; cores: number }
interface Row { step: string; kv?: number; wall?: number; load?: Load; noisy?: string; [k: string]: unknown }
interface Refused { step: string; kv?: number; load: Load; reason: string; [k: string]: unknown }
interface Recorder {
  rows: Row[];
  refused: Refused[];
  cores: number;
  begin(): { start: number };
  record(row: Row, mark: { start: number }): Row | undefined;
}
interface LoadGuard {
  createRecorder(o: { loadSource: () => number; cores: number; allowLoad?: boolean }): Recorder;
  writeResults(file: string, results: object, recorder: Recorder): { exitCode: number; lines: string[] };
  allowLoadWanted(env: NodeJS.ProcessEnv, argv: string[]): boolean;
  REFUSED_EXIT: number;
}
// bench/ is plain JavaScript run by node (npm run bench): loaded as it runs there.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const guard = require('../../bench/load-guard') as LoadGuard;

/** A load source that answers the given 1-minute load averages in turn. */
function loads(...values: number[]): () => number {
  let i = 0;
  return () => {
    if (i >= values.length) throw new Error('the load was read more often than the test expected');
    return values[i++];
  };
}

/** Measures one row: the load is read at begin() and at record(). */
function measure(recorder: Recorder, row: Row): Row | undefined {
  const mark = recorder.begin();
  return recorder.record(row, mark);
}

describe('bench rows and the load average', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'load-guard-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps a row measured below the cores, with the load at its start and its end', () => {
    const r = guard.createRecorder({ loadSource: loads(0.5, 1.234), cores: 2 });
    const kept = measure(r, { kv: 2000, step: 'plan (no changes)', wall: 4.2 });
    expect(kept).toEqual({ kv: 2000, step: 'plan (no changes)', wall: 4.2, load: { start: 0.5, end: 1.23, cores: 2 } });
    expect(r.rows).toEqual([kept]);
    expect(r.refused).toEqual([]);
  });

  it('keeps a row whose load equals the cores (not above)', () => {
    const r = guard.createRecorder({ loadSource: loads(2, 2), cores: 2 });
    expect(measure(r, { step: 'synth', wall: 1 })).toMatchObject({ load: { start: 2, end: 2, cores: 2 } });
    expect(r.refused).toEqual([]);
  });

  it.each([
    ['its start', [5.5, 1], /5\.5 at its start, above the 2 cores/],
    ['its end', [1, 3.25], /3\.25 at its end, above the 2 cores/],
    ['both', [4, 6], /4 at its start and 6 at its end/],
  ])('refuses a row whose load was above the cores at %s, keeping what it measured but no figure', (_at, values, reason) => {
    const r = guard.createRecorder({ loadSource: loads(...values), cores: 2 });
    expect(measure(r, { kv: 2000, latency: 20, backend: 'local', step: 'apply (all creates)', wall: 11.5, rssMb: 130, cpuMsPerObject: 1.2 })).toBeUndefined();
    expect(r.rows).toEqual([]);
    expect(r.refused).toEqual([{ kv: 2000, latency: 20, backend: 'local', step: 'apply (all creates)', load: { start: values[0], end: values[1], cores: 2 }, reason: expect.stringMatching(reason) }]);
  });

  it('with the override, keeps a row measured under load and marks it noisy', () => {
    const r = guard.createRecorder({ loadSource: loads(7, 1), cores: 2, allowLoad: true });
    const kept = measure(r, { step: 'synth', wall: 3 });
    expect(kept).toMatchObject({ step: 'synth', wall: 3, load: { start: 7, end: 1, cores: 2 }, noisy: expect.stringMatching(/7 at its start/) });
    expect(r.refused).toEqual([]);
  });

  it('refuses to record a row measured without a load at its start', () => {
    const r = guard.createRecorder({ loadSource: loads(1), cores: 2 });
    expect(() => r.record({ step: 'synth' }, undefined as unknown as { start: number })).toThrow(/"synth" was recorded without begin\(\)/);
  });

  it('writes the kept rows and the refused ones (without figures), and the run fails', () => {
    const r = guard.createRecorder({ loadSource: loads(1, 1, 9, 9), cores: 2 });
    measure(r, { kv: 2000, step: 'synth', wall: 1 });
    measure(r, { kv: 2000, step: 'plan (no changes)', wall: 8 });
    const file = path.join(dir, 'results.json');
    const { exitCode, lines } = guard.writeResults(file, { machine: { cpus: 2 } }, r);
    expect(exitCode).toBe(guard.REFUSED_EXIT);
    expect(exitCode).not.toBe(0);
    const written = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(written.machine).toEqual({ cpus: 2 });
    expect(written.rows.map((x: Row) => x.step)).toEqual(['synth']);
    expect(written.refused).toEqual([{ kv: 2000, step: 'plan (no changes)', load: { start: 9, end: 9, cores: 2 }, reason: expect.any(String) }]);
    expect(JSON.stringify(written.refused)).not.toContain('"wall"');
    expect(lines.join('\n')).toMatch(/refused: 2000 KV, plan \(no changes\): load average 9 at its start and 9 at its end, above the 2 cores/);
  });

  it('leaves the previous results as they were when every row was refused', () => {
    const r = guard.createRecorder({ loadSource: loads(3, 3, 4, 4), cores: 2 });
    measure(r, { step: 'synth', wall: 1 });
    measure(r, { objects: 200, latency: 0, step: 'no-op plan, synth cache cold', wall: 3, floor: 1 });
    const file = path.join(dir, 'results.json');
    fs.writeFileSync(file, 'previous');
    const { exitCode, lines } = guard.writeResults(file, {}, r);
    expect(exitCode).toBe(guard.REFUSED_EXIT);
    expect(fs.readFileSync(file, 'utf8')).toBe('previous');
    expect(lines.join('\n')).toMatch(/no row was kept/);
    expect(lines).toContain('refused: 200 objects, L=0, no-op plan, synth cache cold: load average 4 at its start and 4 at its end, above the 2 cores');
  });

  it('succeeds when every row was kept, noisy ones included under the override', () => {
    const r = guard.createRecorder({ loadSource: loads(1, 1, 5, 5), cores: 2, allowLoad: true });
    measure(r, { step: 'synth', wall: 1 });
    measure(r, { step: 'plan (no changes)', wall: 2 });
    const file = path.join(dir, 'results.json');
    const { exitCode, lines } = guard.writeResults(file, {}, r);
    expect(exitCode).toBe(0);
    const written = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(written.rows.map((x: Row) => Boolean(x.noisy))).toEqual([false, true]);
    expect(written.refused).toEqual([]);
    expect(lines.join('\n')).toMatch(/2 rows written .*1 marked noisy/);
  });

  it('takes the override from BENCH_ALLOW_LOAD or --allow-load', () => {
    expect(guard.allowLoadWanted({}, ['node', 'run.js'])).toBe(false);
    expect(guard.allowLoadWanted({ BENCH_ALLOW_LOAD: '0' }, ['node', 'run.js'])).toBe(false);
    expect(guard.allowLoadWanted({ BENCH_ALLOW_LOAD: '1' }, ['node', 'run.js'])).toBe(true);
    expect(guard.allowLoadWanted({}, ['node', 'run.js', '--quick', '--allow-load'])).toBe(true);
  });
});
