import { describeWithTool, realTools } from '../../support/real-tools';
import { ConsulAclAgent, startConsulAclAgent } from '../../support/consul-acl-agent';
import { MGMT, Served, serveMesh } from './helpers';

let mesh: Served;
beforeAll(async () => { mesh = await serveMesh(); });
afterAll(async () => { await mesh.api.stop(); });

// The emulator starts with a management token: a bootstrap answered to anyone would hand out a
// global-management token that reads the admin routes.
test('PUT /v1/acl/bootstrap is refused with and without a token, and no token it could have made works', async () => {
  for (const token of [null, MGMT]) {
    const r = await mesh.call('PUT', '/v1/acl/bootstrap', { token });
    expect(r.status).toBe(403);
    expect(r.text.trim()).toBe('Permission denied: ACL bootstrap no longer allowed (reset index: 1)');
  }
  expect((mesh.emu.snapshot() as { acl: { tokens: unknown[] } }).acl.tokens).toEqual([]);
});

describeWithTool('CONSUL', 'the real mesh (Consul 1.16) with an initial management token', () => {
  let consul: ConsulAclAgent;
  beforeAll(async () => { consul = await startConsulAclAgent(realTools().CONSUL!); });
  afterAll(async () => { await consul?.stop(); });

  test('answers bootstrap as the emulator does (403, the same words; only the reset index differs)', async () => {
    for (const token of [undefined, consul.managementToken]) {
      const real = await fetch(`${consul.address}/v1/acl/bootstrap`, { method: 'PUT', headers: token ? { 'X-Consul-Token': token } : {} });
      const emulated = await mesh.call('PUT', '/v1/acl/bootstrap', { token: token ? MGMT : null });
      expect(real.status).toBe(emulated.status);
      const words = (t: string) => t.trim().replace(/reset index: \d+/, 'reset index: N');
      expect(words(await real.text())).toBe(words(emulated.text));
    }
  });
});
