import { KvSecret } from '../../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, synthApp, TestWorld } from '../../support/harness';

// A KV secret's data written outside converge is drift; `converge refresh` reports it and must not
// take it in as converge's own: the next plan still shows the change and apply writes the app's data back.
describe('KV drift across refresh', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });
  const kv = (method: string, body?: unknown) => fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/drift/key`, {
    method, headers: { 'x-secrets-token': world.env.SECRETS_TOKEN!, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });

  test('refresh reports it; the plan after it still shows it; apply converges it', async () => {
    const dir = synthApp((stack) => { new KvSecret(stack, 'key', { path: 'drift/key', data: { greeting: 'hello' } }); }, 'drift');
    expect((await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env)).status).toBe(0);
    expect((await kv('POST', { data: { greeting: 'changed by hand' } })).status).toBe(200);
    const refresh = await cliAsync(['refresh', '--synth-dir', dir], world.env);
    expect(refresh.status).toBe(0);
    expect(refresh.stdout).toContain('~ key: changed outside converge (data');
    const plan = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env);
    expect(plan.status).toBe(2);
    expect(plan.stdout).toMatch(/key \(secrets\.KvSecret\) will be updated/);
    expect((await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env)).status).toBe(0);
    expect(((await (await kv('GET')).json()) as { data: { data: Record<string, string> } }).data.data).toEqual({ greeting: 'hello' });
    expect((await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env)).status).toBe(0);
  });
});
