import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { CLI, startWorld, synthApp, TestWorld } from '../support/harness';

// Without CONVERGE_STATE_KEY the first apply creates a key file and says so once: before the
// progress of the apply starts, never in the middle of it.
describe('the state-key notice', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  test('precedes the first progress line, in one stream holding stdout and stderr in order', async () => {
    const dir = synthApp((stack) => {
      for (const i of [1, 2, 3]) new KvSecret(stack, `kv-${i}`, { path: `notice/kv-${i}`, data: { a: 'b' } });
    });
    const env = { ...world.env };
    delete env.CONVERGE_STATE_KEY;
    const log = path.join(world.dir, 'both.log');
    const fd = fs.openSync(log, 'w');
    // Both streams into one file descriptor: the file holds the lines in the order they were written.
    const status = await new Promise<number | null>((resolve) => {
      spawn(CLI, ['apply', '--auto-approve', '--synth-dir', dir], { env, stdio: ['ignore', fd, fd] }).on('close', resolve);
    });
    fs.closeSync(fd);
    const lines = fs.readFileSync(log, 'utf8').split('\n');
    expect(status).toBe(0);
    const notice = lines.findIndex((l) => l.startsWith('converge: created a state key in '));
    const firstProgress = lines.findIndex((l) => /^ {2}kv-\d: create…$/.test(l));
    expect(notice).toBeGreaterThanOrEqual(0);
    expect(firstProgress).toBeGreaterThanOrEqual(0);
    expect(notice).toBeLessThan(firstProgress);
    expect(lines.filter((l) => l.includes('created a state key'))).toHaveLength(1);
    expect(fs.existsSync(path.join(world.dir, '.converge', 'state.key'))).toBe(true);
  });
});
