import { SecretValue } from '../../lib';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { countingProxy, CountingProxy } from '../support/counting-proxy';
import { allFiles, cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// A server that echoes what it was sent in its error answers: the secret data and the token
// never reach converge's output, errors or debug log, while the status and the API's words do.
describe('API error messages redact what can carry a secret', () => {
  let world: TestWorld;
  let proxy: CountingProxy;
  const secret = 'pw-echo-5b7c9d1e3f';
  beforeAll(async () => {
    world = await startWorld({}, { ECHO_PASSWORD: secret });
    proxy = await countingProxy(world.env.SECRETS_ADDR!, (req, headers) => {
      if (req.method === 'GET' || req.url.includes('/metadata/')) return undefined;
      const echoed = `token=${headers['x-secrets-token']} body=${req.body}`;
      if (req.url.includes('echo-errors')) {
        return { status: 400, body: JSON.stringify({ errors: [`invalid request: ${req.body}`, `X-Secrets-Token: ${headers['x-secrets-token']}`] }) };
      }
      if (req.url.includes('echo-doc')) {
        return { status: 400, body: JSON.stringify({ request: JSON.parse(req.body || '{}'), headers }) };
      }
      return { status: 400, headers: { 'content-type': 'text/plain' }, body: `X-Secrets-Token: ${headers['x-secrets-token']}\nContent-Type: x\n\n${echoed}` };
    });
  });
  afterAll(async () => { await proxy.close(); await world.stop(); });

  test.each(['echo-errors', 'echo-doc', 'echo-text'])('%s', async (where) => {
    const dir = synthApp((stack) => {
      new KvSecret(stack, 'kv', { path: `${where}/db`, data: { user: 'app', pin: SecretValue.fromEnv('ECHO_PASSWORD') } });
    }, where);
    const r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve', '--log-level', 'debug'], { ...world.env, SECRETS_ADDR: proxy.url });
    expect(r.status).toBe(1);
    const output = r.stdout + r.stderr;
    expect(output).toMatch(/secrets API (PUT|POST) \/v1\/secret\/data\/echo-\w+\/db failed with 400/);
    expect(output).toContain('(redacted)');
    for (const hidden of [secret, world.env.SECRETS_TOKEN!]) {
      expect(output).not.toContain(hidden);
      for (const f of allFiles(world.env.CONVERGE_DIR!)) expect(f.text).not.toContain(hidden);
    }
    if (where === 'echo-errors') expect(output).toContain('invalid request: ');
  });
});
