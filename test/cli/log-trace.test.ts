import { SecretValue } from '../../lib';
import { Organization } from '../../lib/platform/organization/organization';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { ServiceDefaults } from '../../lib/mesh/config-entry/service-defaults';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// Issue 34 item 4: `--log-level trace` prints each request and answer (method, URL, status,
// duration) as TF_LOG=DEBUG does, and never a token, a credential header or secret data.
describe('--log-level trace', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld({}, { TRACE_PW: 'pw-trace-9f3e1' }); });
  afterAll(async () => { await world.stop(); });

  test('apply: a line per request and answer of each API, no secret', async () => {
    const dir = synthApp((stack) => {
      new Organization(stack, 'org', { name: 'trace-org', email: 'ops@trace.io' });
      new KvSecret(stack, 'db', { path: 'trace/db', data: { user: 'app', password: SecretValue.fromEnv('TRACE_PW') } });
      new ServiceDefaults(stack, 'svc', { name: 'trace-svc' });
    }, 'trace');
    const r = await cliAsync(['--log-level', 'trace', 'apply', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('[trace] '));
    const secretsUrl = `${world.env.SECRETS_ADDR}/v1/secret/data/trace/db`;
    expect(lines).toContain(`[trace] secrets POST ${secretsUrl}`);
    expect(lines.some((l) => new RegExp(`^\\[trace\\] secrets POST ${secretsUrl} -> 2\\d\\d in \\d+ ms$`).test(l))).toBe(true);
    expect(lines.some((l) => /^\[trace\] platform (GET|POST) http:\/\/127\.0\.0\.1:\d+\/api\/v2\/.* -> \d{3} in \d+ ms$/.test(l))).toBe(true);
    expect(lines.some((l) => /^\[trace\] mesh (GET|PUT) http:\/\/127\.0\.0\.1:\d+\/v1\/.* -> \d{3} in \d+ ms$/.test(l))).toBe(true);
    for (const secret of [world.env.PLATFORM_TOKEN!, world.env.SECRETS_TOKEN!, world.env.MESH_HTTP_TOKEN!, 'pw-trace-9f3e1']) {
      expect(r.stderr).not.toContain(secret);
      expect(r.stdout).not.toContain(secret);
    }
    expect(r.stderr).not.toMatch(/authorization|x-secrets-token|x-mesh-token/i);

    // Without it: no such line.
    const quiet = await cliAsync(['plan', '--synth-dir', dir], world.env);
    expect(quiet.stderr).not.toContain('[trace]');
  });
});
