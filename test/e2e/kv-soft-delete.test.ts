import * as path from 'path';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// A KV key whose latest version was soft-deleted (marked deleted, not removed) still exists: its metadata
// and older versions are there. A key converge created stays converge's: refresh keeps it, the next apply
// writes a new version on top, destroy deletes it; a soft-deleted key can be imported.
describe('a soft-deleted KV key', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  const secrets = async (method: string, p: string, body?: unknown, token = world.env.SECRETS_TOKEN!) => {
    const r = await fetch(`${world.env.SECRETS_ADDR}/v1/${p}`, {
      method, headers: { 'x-secrets-token': token, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
  const run = (args: string[], dir: string, env: Record<string, string> = {}) =>
    cliAsync([...args, '--synth-dir', dir], { ...world.env, ...env });

  test('refresh keeps converge\'s key, the next apply writes a new version on top, destroy deletes it', async () => {
    const env = { CONVERGE_DIR: path.join(world.dir, 'refresh') };
    const app = synthApp((s) => { new KvSecret(s, 'a', { path: 'soft/a', data: { user: 'app' } }); }, 'soft');
    expect((await run(['apply', '--auto-approve'], app, env)).status).toBe(0);
    expect((await secrets('DELETE', 'secret/data/soft/a')).status).toBe(204);

    const refresh = await run(['refresh'], app, env);
    expect(refresh.stderr).toBe('');
    expect(refresh.stdout).toContain('- a: deleted outside converge (secret/soft/a remains: its latest version is deleted); kept in state: the next apply writes it again');
    const list = await cliAsync(['state', 'list', '--stack', 'soft'], { ...world.env, ...env });
    expect(list.stdout).toContain('a\tsecrets.KvSecret\tsecret/soft/a\t(deleted outside converge)');

    const plan = await run(['plan', '--detailed-exitcode'], app, env);
    expect(plan.status).toBe(2);
    expect(plan.stdout).toMatch(/\+ a \(secrets\.KvSecret\)/);
    const noRefresh = await run(['plan', '--detailed-exitcode', '--refresh=false'], app, env);
    expect(noRefresh.status).toBe(2);
    const apply = await run(['apply', '--auto-approve'], app, env);
    expect(apply.stderr).toBe('');
    expect(apply.status).toBe(0);
    const read = await secrets('GET', 'secret/data/soft/a');
    expect(read.body.data).toMatchObject({ data: { user: 'app' }, metadata: { version: 2 } });
    expect((await run(['plan', '--detailed-exitcode'], app, env)).status).toBe(0);
    expect((await cliAsync(['state', 'list', '--stack', 'soft'], { ...world.env, ...env })).stdout).not.toContain('deleted outside');

    // Soft-deleted again, then destroyed: the key goes, metadata and all.
    expect((await secrets('DELETE', 'secret/data/soft/a')).status).toBe(204);
    expect((await run(['refresh'], app, env)).status).toBe(0);
    const destroy = await run(['destroy', '--auto-approve'], app, env);
    expect(destroy.status).toBe(0);
    expect((await secrets('GET', 'secret/metadata/soft/a')).status).toBe(404);
  });

  test('import takes a key whose latest version is deleted; the next apply writes it', async () => {
    const env = { CONVERGE_DIR: path.join(world.dir, 'import') };
    expect((await secrets('POST', 'secret/data/soft/b', { data: { old: 'x' } })).status).toBe(200);
    expect((await secrets('DELETE', 'secret/data/soft/b')).status).toBe(204);
    const app = synthApp((s) => { new KvSecret(s, 'b', { path: 'soft/b', data: { user: 'b' } }); }, 'softimp');
    const imp = await cliAsync(['import', 'b', 'secret/soft/b', '--synth-dir', app], { ...world.env, ...env });
    expect(imp.stderr).toBe('');
    expect(imp.status).toBe(0);
    expect(imp.stdout).toContain('Imported secret/soft/b as b: its latest version is deleted; the next apply writes it again.');
    const apply = await run(['apply', '--auto-approve'], app, env);
    expect(apply.stderr).toBe('');
    expect(apply.status).toBe(0);
    expect((await secrets('GET', 'secret/data/soft/b')).body.data).toMatchObject({ data: { user: 'b' }, metadata: { version: 2 } });
    expect((await run(['destroy', '--auto-approve'], app, env)).status).toBe(0);
    expect((await secrets('GET', 'secret/metadata/soft/b')).status).toBe(404);
  });

  test('a create whose data landed but whose metadata write failed is finished by the next run, never called someone else\'s', async () => {
    const env = { CONVERGE_DIR: path.join(world.dir, 'partial') };
    // A token that may write the data but not the key's metadata.
    const policy = 'path "secret/data/*" { capabilities = ["create", "read", "update"] }\npath "secret/metadata/*" { capabilities = ["read", "list"] }';
    expect((await secrets('PUT', 'sys/policies/acl/data-only', { policy })).status).toBe(204);
    const token = (await secrets('POST', 'auth/token/create', { policies: ['data-only'] })).body.auth.client_token;
    const app = synthApp((s) => { new KvSecret(s, 'c', { path: 'soft/c', data: { user: 'c' }, customMetadata: { owner: 'ops' } }); }, 'softpart');

    // Past the preflight, which would refuse the plan before anything is written (test/e2e/preflight.test.ts).
    const first = await run(['apply', '--auto-approve', '--no-preflight'], app, { ...env, SECRETS_TOKEN: token });
    expect(first.status).toBe(1);
    expect(first.stdout + first.stderr).toContain('403: permission denied');
    expect(first.stdout + first.stderr).toContain('the key\'s data was written (version 1); the next apply finishes it');
    expect((await secrets('GET', 'secret/data/soft/c')).status).toBe(200);

    const plan = await run(['plan'], app, env);
    expect(plan.stdout).not.toContain('not managed by converge');
    expect(plan.stdout).toMatch(/adopt/);
    const apply = await run(['apply', '--auto-approve'], app, env);
    expect(apply.stderr).toBe('');
    expect(apply.status).toBe(0);
    expect((await secrets('GET', 'secret/metadata/soft/c')).body.data.custom_metadata).toEqual({ owner: 'ops' });
    expect((await run(['plan', '--detailed-exitcode'], app, env)).status).toBe(0);
    expect((await run(['destroy', '--auto-approve'], app, env)).status).toBe(0);
    expect((await secrets('GET', 'secret/metadata/soft/c')).status).toBe(404);
  });
});
