import * as fs from 'fs';
import * as path from 'path';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { KvSecretData } from '../../lib/secrets/kv/kv-secret-data';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// Migrating into an empty state: the data source a secret reference comes from has no record yet,
// so the reference is unresolved when import records what it observed. It must still be a secret.
describe('converge import of a field set from an unresolved secret reference', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  const kv = (p: string, body: unknown) => fetch(`${world.env.SECRETS_ADDR}/v1/secret/${p}`, {
    method: 'POST', headers: { 'x-secrets-token': world.env.SECRETS_TOKEN!, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });

  test('is recorded as a secret (an HMAC), never in clear in state.json or state show; the next plan sees no change', async () => {
    const password = 'pw-imported-0123456789abcdef';
    expect((await kv('data/import/src', { data: { password } })).status).toBe(200);
    expect((await kv('data/import/target', { data: { x: '1' } })).status).toBe(200);
    expect((await kv('metadata/import/target', { custom_metadata: { note: password } })).status).toBe(204);
    const app = synthApp((st) => {
      const src = new KvSecretData(st, 'src', { path: 'import/src' });
      new KvSecret(st, 'target', { path: 'import/target', data: { x: '1' }, customMetadata: { note: src.field('password') } });
    }, 'imp');
    const imported = await cliAsync(['import', '--synth-dir', app, 'target', 'secret/import/target'], world.env);
    expect(imported.stderr).toBe('');
    expect(imported.status).toBe(0);
    const stateDir = path.join(world.env.CONVERGE_DIR!, 'stacks', 'imp');
    const files = fs.readdirSync(stateDir).map((f) => fs.readFileSync(path.join(stateDir, f), 'utf8'));
    for (const text of files) expect(text).not.toContain(password);
    const show = await cliAsync(['state', 'show', 'target', '--stack', 'imp'], world.env);
    expect(show.status).toBe(0);
    expect(show.stdout).not.toContain(password);
    expect(JSON.parse(show.stdout).spec.customMetadata.note).toEqual({ $secret: { ref: 'src.data.password' } });
    const plan = await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], world.env);
    expect(plan.stdout).not.toContain(password);
    expect(plan.stdout).not.toMatch(/customMetadata/);
  });
});
