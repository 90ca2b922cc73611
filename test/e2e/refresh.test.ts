import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

describe('refresh', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  test('counts the objects it read, those found gone included', async () => {
    const dir = synthApp((stack) => {
      for (const n of ['a', 'b', 'c']) new KvSecret(stack, n, { path: `refresh/${n}`, data: { n } });
    }, 'refreshed');
    expect((await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env)).status).toBe(0);
    const gone = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/metadata/refresh/b`, { method: 'DELETE', headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    expect(gone.status).toBe(204);
    const r = await cliAsync(['refresh', '--synth-dir', dir], world.env);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('- b: deleted outside converge; removed from state');
    expect(r.stdout).toContain('Refreshed 3 objects of stack refreshed: 1 gone, 0 drifted.');
    const list = await cliAsync(['state', 'list', '--stack', 'refreshed'], world.env);
    expect(list.stdout.trim().split('\n').map((l) => l.split('\t')[0])).toEqual(['a', 'c']);
  });
});
