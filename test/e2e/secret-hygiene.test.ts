import * as fs from 'fs';
import * as path from 'path';
import { SecretValue } from '../../lib';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { allFiles, cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// A planted secret must never appear in synth output, state, plan output, saved plans or logs.
describe('secret hygiene', () => {
  let world: TestWorld;
  const fromEnv = 'planted-env-secret-5c2e9b';
  const fromFile = 'planted-file-secret-a71d04';
  const plain = 'planted-plain-secret-0be6f3';

  beforeAll(async () => {
    world = await startWorld({}, { HYGIENE_SECRET: fromEnv });
    // The secret file is kept in the world's directory, outside the app's: named as --secret-file-dir would.
    world.env.CONVERGE_SECRET_FILE_DIR = world.dir;
  });
  afterAll(async () => { await world.stop(); });

  test('no planted value in any file converge wrote or anything it printed', async () => {
    const secretFile = path.join(world.dir, 'secret.txt');
    fs.writeFileSync(secretFile, fromFile + '\n');
    const dir = synthApp((stack) => {
      new KvSecret(stack, 'app', {
        path: 'hygiene/app',
        data: { a: SecretValue.fromEnv('HYGIENE_SECRET'), b: SecretValue.fromFile(secretFile), c: SecretValue.unsafePlainText(plain) },
      });
    }, 'hygiene');
    const prints: string[] = [];
    const runs = [
      ['plan', '--synth-dir', dir, '--out', path.join(world.dir, 'saved.plan')],
      ['plan', '--synth-dir', dir, '--json'],
      ['apply', '--synth-dir', dir, '--auto-approve', '--log-level', 'debug'],
      ['plan', '--synth-dir', dir, '--log-level', 'debug'],
      ['refresh', '--synth-dir', dir],
      ['output', '--stack', 'hygiene'],
      ['state', 'show', 'app', '--stack', 'hygiene'],
    ];
    for (const args of runs) {
      const r = await cliAsync(args, world.env);
      expect(r.status).toBe(0);
      prints.push(r.stdout, r.stderr);
    }
    // The values did reach the API.
    const got = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/hygiene/app`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    expect(((await got.json()) as { data: { data: Record<string, string> } }).data.data).toEqual({ a: fromEnv, b: fromFile, c: plain });

    // A failing apply (the secret source vanished) leaks nothing either.
    fs.rmSync(secretFile);
    const failed = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(failed.status).toBe(1);
    prints.push(failed.stdout, failed.stderr);

    const written = [...allFiles(dir), ...allFiles(world.dir)];
    expect(written.length).toBeGreaterThan(3);
    for (const value of [fromEnv, fromFile, plain]) {
      for (const p of prints) expect(p).not.toContain(value);
      for (const f of written) {
        if (f.file === secretFile) continue;
        expect({ file: f.file, leaked: f.text.includes(value) }).toEqual({ file: f.file, leaked: false });
      }
    }
    const state = allFiles(path.join(world.dir, '.converge')).find((f) => f.file.endsWith('state.json'))!;
    expect(JSON.parse(state.text).resources.app.hmacs).toEqual({
      'data.a': expect.stringMatching(/^[0-9a-f]{64}$/), 'data.b': expect.stringMatching(/^[0-9a-f]{64}$/), 'data.c': expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });
});
