import { spawn } from 'child_process';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { CLI, cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// `converge watch` as a person reads it in a terminal (issue 34 item 3): drift found is one line, and
// its revert is one line; the drift it resolves is said on that line, not on a second one.
describe('watch text output', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  test('each revert prints once', async () => {
    const dir = synthApp((stack) => { new KvSecret(stack, 'kv', { path: 'text/kv', data: { colour: 'blue' } }); }, 'text');
    expect((await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env)).status).toBe(0);
    const proc = spawn(CLI, ['watch', '--synth-dir', dir, '--interval', '0.3', '--on-drift', 'revert', '--log-level', 'debug'], { env: world.env });
    let out = '';
    proc.stdout.on('data', (d) => { out += d; });
    const until = async (f: () => boolean) => { while (!f()) { if (proc.exitCode !== null) throw new Error(out); await new Promise((r) => setTimeout(r, 100)); } };
    const cycles = () => (out.match(/cycle \(full\)/g) ?? []).length;
    try {
      await until(() => cycles() >= 1);
      const written = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/text/kv`, { method: 'POST',
        headers: { 'x-secrets-token': world.env.SECRETS_TOKEN!, 'content-type': 'application/json' }, body: JSON.stringify({ data: { colour: 'red' } }) });
      expect(written.status).toBe(200);
      await until(() => /reverted kv/.test(out));
      // Three whole cycles after the revert: nothing more is said about kv.
      const seen = cycles();
      await until(() => cycles() >= seen + 3);
    } finally {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.on('close', r));
    }
    const aboutKv = out.split('\n').filter((l) => /\bkv\b/.test(l) && !/cycle \(/.test(l));
    expect(aboutKv).toHaveLength(2);
    expect(aboutKv[0]).toMatch(/drift kv \(secrets\.KvSecret\)/);
    expect(aboutKv[1]).toMatch(/reverted kv \(update\): written back to what the app declares; drift resolved$/);
  });
});
