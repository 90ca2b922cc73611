import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { CLI, cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';
import { run } from '../support/packaged';

// Apply progress: a live block redrawn in place on a terminal (a pseudo-terminal made by
// `script`), one line per event without one (a pipe, CI), nothing with --quiet.
const CURSOR_UP_AND_CLEAR = /\x1b\[\d+A\x1b\[J/;

describe('apply progress', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  const app = (n: number, prefix: string) => synthApp((stack) => {
    for (let i = 0; i < n; i++) new KvSecret(stack, `kv${i}`, { path: `${prefix}/s${i}`, data: { i: String(i) } });
  }, prefix);

  /** Runs the CLI with a pseudo-terminal as its stdout. */
  const onTerminal = (args: string[], env: NodeJS.ProcessEnv) => {
    const cmd = [CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    return run('script', ['-qec', cmd, '/dev/null'], { cwd: world.dir, env: { ...env, TERM: 'xterm' } });
  };

  test('on a terminal: a live block redrawn in place, each finished operation printed once', async () => {
    const r = await onTerminal(['apply', '--synth-dir', app(5, 'live'), '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(CURSOR_UP_AND_CLEAR);
    expect(r.stdout).toMatch(/\d\/5 done, \d running/);
    for (let i = 0; i < 5; i++) expect(r.stdout.match(new RegExp(`✓ \\[\\d/5\\] kv${i}: created`, 'g'))).toHaveLength(1);
    expect(r.stdout).not.toMatch(/kv0: create…\r?\n/);
    expect(r.stdout).toMatch(/Apply complete: 5 done, 0 failed/);
  });

  test('on a terminal, the block is redrawn per moment, not per operation: every finished operation still printed once', async () => {
    const n = 120;
    const r = await onTerminal(['apply', '--synth-dir', app(n, 'many'), '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    // Drawn on every start and finish, the block would be redrawn about 2n times.
    expect((r.stdout.match(new RegExp(CURSOR_UP_AND_CLEAR.source, 'g')) ?? []).length).toBeLessThan(n);
    for (let i = 0; i < n; i++) expect(r.stdout.match(new RegExp(`✓ \\[\\d+/${n}\\] kv${i}: created`, 'g'))).toHaveLength(1);
    expect(r.stdout).toMatch(/Apply complete: 120 done, 0 failed/);
  });

  test('without a terminal, or in CI: one plain line per event', async () => {
    let r = await cliAsync(['apply', '--synth-dir', app(3, 'plain'), '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain('\x1b[');
    expect(r.stdout).toMatch(/^ {2}kv0: create…$/m);
    expect(r.stdout).toMatch(/^ {2}✓ \[\d\/3\] kv0: created \(\d+ ms\)$/m);

    r = await onTerminal(['apply', '--synth-dir', app(3, 'ci'), '--auto-approve'], { ...world.env, CI: 'true' });
    expect(r.status).toBe(0);
    expect(r.stdout).not.toMatch(CURSOR_UP_AND_CLEAR);
    expect(r.stdout).toMatch(/kv0: create…/);
  });

  test('--quiet prints no progress, only the results', async () => {
    const r = await onTerminal(['--quiet', 'apply', '--synth-dir', app(3, 'quiet'), '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toMatch(CURSOR_UP_AND_CLEAR);
    expect(r.stdout).not.toMatch(/kv0: create/);
    expect(r.stdout).toMatch(/Apply complete: 3 done/);
  });
});
