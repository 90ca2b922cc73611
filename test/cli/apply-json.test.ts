import * as path from 'path';
import { SecretValue } from '../../lib';
import { Organization } from '../../lib/platform/organization/organization';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { ServiceDefaults } from '../../lib/mesh/config-entry/service-defaults';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// Issue 34 item 4: `apply --json` and `destroy --json` stream one JSON event per line
// (docs/apply-json.md): start and done per object, and a summary; never a secret.
describe('apply --json', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld({}, { JSON_PW: 'pw-json-41c7' }); });
  afterAll(async () => { await world.stop(); });

  const events = (stdout: string) => stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

  test('one event per line for each object, then a summary; destroy too; nothing secret', async () => {
    const dir = synthApp((stack) => {
      new Organization(stack, 'org', { name: 'json-org', email: 'ops@json.io' });
      new KvSecret(stack, 'db', { path: 'json/db', data: { password: SecretValue.fromEnv('JSON_PW') } });
      new ServiceDefaults(stack, 'svc', { name: 'json-svc' });
    }, 'jsonstack');
    const r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve', '--json'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const all = events(r.stdout);
    expect(all.every((e) => e.format_version === 1 && e.stack === 'jsonstack')).toBe(true);
    expect(all[0]).toMatchObject({ type: 'planned', operation: 'apply', changes: { create: 3 } });
    for (const address of ['org', 'db', 'svc']) {
      const mine = all.filter((e) => e.address === address);
      expect(mine.map((e) => e.type)).toEqual(['start', 'done']);
      expect(mine[1]).toMatchObject({ action: 'create', ms: expect.any(Number) });
    }
    expect(all[all.length - 1]).toMatchObject({ type: 'summary', operation: 'apply', done: 3, failed: 0, skipped: 0, requests: expect.any(Number) });
    for (const secret of ['pw-json-41c7', world.env.PLATFORM_TOKEN!, world.env.SECRETS_TOKEN!, world.env.MESH_HTTP_TOKEN!]) expect(r.stdout).not.toContain(secret);

    const d = await cliAsync(['destroy', '--synth-dir', dir, '--auto-approve', '--json'], world.env);
    expect(d.status).toBe(0);
    const gone = events(d.stdout);
    // An organization is retained by default: forgotten, not deleted.
    expect(Object.fromEntries(gone.filter((e) => e.type === 'done').map((e) => [e.address, e.action]))).toEqual({ org: 'forget', db: 'delete', svc: 'delete' });
    expect(gone[gone.length - 1]).toMatchObject({ type: 'summary', operation: 'destroy', done: 3 });
  });

  test('a failed object and the one that needs it: failed and skipped events, the summary counts them', async () => {
    const dir = synthApp((stack) => {
      const first = new ServiceDefaults(stack, 'first', { name: 'json-raced' });
      const after = new ServiceDefaults(stack, 'after', { name: 'json-after' });
      after.node.addDependency(first);
    }, 'jsonfail');
    const file = path.join(world.dir, 'jsonfail.plan');
    expect((await cliAsync(['plan', '--synth-dir', dir, '--out', file], world.env)).status).toBe(0);
    // Written by someone else between the plan and the apply: the create (check-and-set 0) fails.
    const put = await fetch(`${world.env.MESH_HTTP_ADDR}/v1/config`, {
      method: 'PUT', headers: { 'x-mesh-token': world.env.MESH_HTTP_TOKEN! }, body: JSON.stringify({ Kind: 'service-defaults', Name: 'json-raced' }),
    });
    expect(put.status).toBe(200);
    const r = await cliAsync(['apply', file, '--json'], world.env);
    expect(r.status).toBe(1);
    const all = events(r.stdout);
    expect(all.find((e) => e.type === 'failed')).toMatchObject({ address: 'first', action: 'create', error: expect.any(String) });
    expect(all.find((e) => e.type === 'skipped')).toMatchObject({ address: 'after', action: 'create', reason: expect.any(String) });
    expect(all[all.length - 1]).toMatchObject({ type: 'summary', done: 0, failed: 1, skipped: 1 });
  });

  test('without --auto-approve: an error event and exit 1, nothing applied', async () => {
    const dir = synthApp((stack) => { new ServiceDefaults(stack, 'svc', { name: 'json-refused' }); }, 'jsonrefused');
    const r = await cliAsync(['apply', '--synth-dir', dir, '--json'], world.env);
    expect(r.status).toBe(1);
    expect(events(r.stdout)).toEqual([{ format_version: 1, type: 'error', message: expect.stringContaining('--auto-approve') }]);
  });
});
