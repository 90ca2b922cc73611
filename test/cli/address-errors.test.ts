import { ServiceDefaults } from '../../lib/mesh/config-entry/service-defaults';
import { Organization } from '../../lib/platform/organization/organization';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// Issue 34 item 4: one run names every API whose address is unset or unreachable, not the first
// only, and points at `converge emulator`.
describe('address errors', () => {
  let world: TestWorld;
  let dir: string;
  beforeAll(async () => {
    world = await startWorld();
    dir = synthApp((stack) => {
      new Organization(stack, 'org', { name: 'addr-all', email: 'ops@addr.io' });
      new KvSecret(stack, 'kv', { path: 'addr/all', data: { a: '1' } });
      new ServiceDefaults(stack, 'svc', { name: 'addr-all' });
    }, 'addrall');
  });
  afterAll(async () => { await world.stop(); });

  test.each([['plan'], ['apply', '--auto-approve']])('%s: one unset and one unreachable API are both named, with converge emulator', async (...args) => {
    const env: NodeJS.ProcessEnv = { ...world.env, MESH_HTTP_ADDR: 'http://127.0.0.1:1' };
    delete env.SECRETS_ADDR;
    const r = await cliAsync([...args, '--synth-dir', dir], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('SECRETS_ADDR');
    expect(r.stderr).toContain('MESH_HTTP_ADDR');
    expect(r.stderr).toContain('http://127.0.0.1:1');
    expect(r.stderr).not.toContain('PLATFORM_ADDRESS');
    expect(r.stderr).toContain('converge emulator');
    expect(r.stdout).not.toMatch(/will be created/);
  });
});
