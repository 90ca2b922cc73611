import * as fs from 'fs';
import * as path from 'path';
import * as crypto from 'crypto';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { TotpKey } from '../../lib/secrets/totp/totp-key';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';
import { startPostgres, TestPostgres } from '../support/postgres';

// `converge state pull` / `state push` move a stack from the local backend to PostgreSQL and back.
describe('state pull and push between backends', () => {
  let pg: TestPostgres;
  let world: TestWorld;
  beforeAll(async () => {
    pg = await startPostgres();
    world = await startWorld();
  });
  afterAll(async () => {
    await world?.stop();
    await pg?.stop();
  });

  test('local -> PostgreSQL -> plan is a no-op there; lineage and serial are checked', async () => {
    const dir = synthApp((stack) => {
      for (let i = 0; i < 3; i++) new KvSecret(stack, `kv${i}`, { path: `move/s${i}`, data: { n: String(i) } });
    }, 'moving');
    const local = world.env;
    const remote = { ...world.env, CONVERGE_STATE: pg.url };
    expect((await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], local)).status).toBe(0);

    const pulled = await cliAsync(['state', 'pull', '--stack', 'moving'], local);
    expect(pulled.status).toBe(0);
    const doc = JSON.parse(pulled.stdout);
    expect(Object.keys(doc.resources).sort()).toEqual(['kv0', 'kv1', 'kv2']);
    const file = path.join(world.dir, 'moving.state.json');
    fs.writeFileSync(file, pulled.stdout);

    let r = await cliAsync(['state', 'push', file], remote);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    r = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], remote);
    expect(r.status).toBe(0);

    // An older copy (lower serial) and an unrelated state (other lineage) are refused without --force.
    expect((await cliAsync(['apply', '--synth-dir', synthApp((s) => new KvSecret(s, 'kv0', { path: 'move/s0', data: { n: 'changed' } }), 'moving'), '--auto-approve'], remote)).status).toBe(0);
    r = await cliAsync(['state', 'push', file], remote);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/the pushed state is older \(serial \d+\) than the existing one/);
    fs.writeFileSync(file, JSON.stringify({ ...doc, lineage: 'another-lineage', serial: doc.serial + 100 }));
    r = await cliAsync(['state', 'push', file], remote);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/has another lineage/);
    r = await cliAsync(['state', 'push', file, '--force'], remote);
    expect(r.status).toBe(0);
    const back = JSON.parse((await cliAsync(['state', 'pull', '--stack', 'moving'], remote)).stdout);
    expect(back.lineage).toBe('another-lineage');
  });

  test('a state pulled from prod is pushed as prod-eu only when a holder of the key re-seals it with --rename-from prod (issue 31 item 3)', async () => {
    const app = synthApp((st) => { new TotpKey(st, 'otp', { name: 'rename-otp', generate: true, exported: true, issuer: 'acme', accountName: 'ops@acme.io' }); }, 'prod');
    expect((await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env)).status).toBe(0);
    const before = JSON.parse((await cliAsync(['output', '--stack', 'prod', '--show-sensitive', '--json'], world.env)).stdout);
    expect(before.otp.url).toMatch(/^otpauth:/);
    const file = path.join(world.dir, 'prod.state.json');
    fs.writeFileSync(file, (await cliAsync(['state', 'pull', '--stack', 'prod'], world.env)).stdout);

    let r = await cliAsync(['state', 'push', file, '--stack', 'prod-eu'], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('--rename-from prod');
    r = await cliAsync(['state', 'push', file, '--stack', 'prod-eu', '--rename-from', 'staging'], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/--rename-from staging names another stack than the one .* holds \(prod\)/);
    // Without the key it was sealed with, nothing is sealed again.
    r = await cliAsync(['state', 'push', file, '--stack', 'prod-eu', '--rename-from', 'prod'], { ...world.env, CONVERGE_STATE_KEY: crypto.randomBytes(32).toString('hex') });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/another state key/);
    expect((await cliAsync(['state', 'list', '--stack', 'prod-eu'], world.env)).stdout).toBe('');

    r = await cliAsync(['state', 'push', file, '--stack', 'prod-eu', '--rename-from', 'prod'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const after = JSON.parse((await cliAsync(['output', '--stack', 'prod-eu', '--show-sensitive', '--json'], world.env)).stdout);
    expect(after).toEqual(before);
    const doc = JSON.parse((await cliAsync(['state', 'pull', '--stack', 'prod-eu'], world.env)).stdout);
    expect(doc.stack).toBe('prod-eu');
    expect(doc.authenticated).toBe(true);

    // A document without seals is never pushed: it is sealed where it is, explicitly.
    const { authenticated: _a, ...unsealed } = doc;
    fs.writeFileSync(file, JSON.stringify({ ...unsealed, resources: Object.fromEntries(Object.entries(doc.resources).map(([a, rec]) => [a, { ...(rec as object), mac: undefined }])) }));
    r = await cliAsync(['state', 'push', file, '--stack', 'prod-eu', '--force'], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/is not sealed .* converge state migrate --stack prod-eu, then pull it again/);
  });
});
