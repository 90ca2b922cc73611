import { ServedApi } from '../../../lib/core/emulator-kit/server';
import { MeshEmulator } from '../../../lib/mesh/emulator/mesh-emulator';
import { MGMT, Served, serveMesh } from '../../mesh/emulator/helpers';
import { ManualClock } from '../../support/fake-clock';
import { advance, call, startSecrets } from '../emulator-helpers';

let s: ServedApi;
let mesh: Served;
beforeEach(async () => {
  s = await startSecrets({ mesh: 'mesh', consul2: 'mesh' });
  mesh = await serveMesh();
});
afterEach(async () => { await s.stop(); await mesh.api.stop(); });

const hostPort = () => new URL(mesh.api.address).host;

describe('config/access', () => {
  test('write and read (address and scheme only); address required; cert pairs; no bootstrap of a mesh with a management token', async () => {
    expect((await call(s, 'GET', '/v1/mesh/config/access')).status).toBe(404);
    expect((await call(s, 'POST', '/v1/mesh/config/access', { body: { address: hostPort(), token: MGMT } })).status).toBe(204);
    const r = await call(s, 'GET', '/v1/mesh/config/access');
    expect(r.body.data).toEqual({ address: hostPort(), scheme: 'http' });
    expect(JSON.stringify(r.body)).not.toContain(MGMT);
    expect(await call(s, 'POST', '/v1/mesh/config/access', { body: { token: 't' } })).toMatchObject({ status: 400, body: { errors: ['missing mesh address'] } });
    expect(await call(s, 'POST', '/v1/mesh/config/access', { body: { address: 'x:1', token: 't', client_cert: 'PEM' } }))
      .toMatchObject({ status: 400, body: { errors: ['client_cert and client_key must be given together'] } });
    expect((await call(s, 'POST', '/v1/mesh/config/access', { body: { address: 'x:1', token: 't', scheme: 'ftp' } })).status).toBe(400);
    // Without a token the engine bootstraps the mesh's ACL system, which a mesh started with a management token refuses.
    const boot = await call(s, 'POST', '/v1/consul2/config/access', { body: { address: hostPort() } });
    expect(boot.status).toBe(400);
    expect(boot.body.errors[0]).toMatch(/^Token not provided and failed to bootstrap ACLs: .*403.*ACL bootstrap no longer allowed/);
  });
});

describe('the mesh ACL system the engine uses', () => {
  test('bootstrap is refused: the mesh starts with a management token', async () => {
    const first = await mesh.call('PUT', '/v1/acl/bootstrap', { token: null });
    expect(first.status).toBe(403);
    expect(first.text).toMatch(/ACL bootstrap no longer allowed \(reset index: \d+\)/);
  });

  test('minted tokens hold the role\'s mesh roles and node identities; namespace and partition must exist', async () => {
    await call(s, 'POST', '/v1/mesh/config/access', { body: { address: hostPort(), token: MGMT } });
    expect((await mesh.call('PUT', '/v1/acl/role', { body: { Name: 'admins', Policies: [{ Name: 'global-management' }] } })).status).toBe(200);
    await call(s, 'POST', '/v1/mesh/roles/ops', { body: { mesh_roles: ['admins'], node_identities: ['n1:dc1'] } });
    const a = await call(s, 'GET', '/v1/mesh/creds/ops');
    expect(a.status).toBe(200);
    const self = await mesh.call('GET', '/v1/acl/token/self', { token: a.body.data.token });
    expect(self.body).toMatchObject({ Roles: [{ Name: 'admins' }], NodeIdentities: [{ NodeName: 'n1', Datacenter: 'dc1' }] });
    // The role's policies hold on the token.
    expect((await mesh.call('GET', '/v1/discovery-chain/anything', { token: a.body.data.token })).status).toBe(200);
    await call(s, 'POST', '/v1/mesh/roles/nobody', { body: { mesh_roles: ['ghosts'] } });
    expect((await call(s, 'GET', '/v1/mesh/creds/nobody')).body.errors[0]).toMatch(/cannot find role "ghosts"/);

    await call(s, 'POST', '/v1/mesh/roles/team', { body: { service_identities: ['web'], mesh_namespace: 'team', partition: 'part' } });
    expect((await call(s, 'GET', '/v1/mesh/creds/team')).body.errors[0]).toMatch(/Partition "part" does not exist/);
    await mesh.call('PUT', '/v1/partition', { body: { Name: 'part' } });
    expect((await call(s, 'GET', '/v1/mesh/creds/team')).body.errors[0]).toMatch(/Namespace "team" does not exist/);
    await mesh.call('PUT', '/v1/namespace', { body: { Name: 'team' } });
    const t = await call(s, 'GET', '/v1/mesh/creds/team');
    expect(t.body.data).toMatchObject({ mesh_namespace: 'team', partition: 'part' });
    expect((await mesh.call('GET', '/v1/acl/token/self', { token: t.body.data.token })).body).toMatchObject({ Namespace: 'team', Partition: 'part' });
  });
});

describe('a mesh below 1.11', () => {
  let old: ServedApi;
  beforeEach(async () => { old = await ServedApi.start(new MeshEmulator({ managementToken: MGMT, version: '1.10.4' }), { port: 0 }); });
  afterEach(async () => { await old.stop(); });

  test('policy, policies, lease and token_type are taken and read back; a management role mints a management token', async () => {
    await call(s, 'POST', '/v1/mesh/config/access', { body: { address: new URL(old.address).host, token: MGMT } });
    const policy = Buffer.from('key "" { policy = "read" }').toString('base64');
    expect((await call(s, 'POST', '/v1/mesh/roles/legacy', { body: { policy, lease: '1h', token_type: 'client' } })).status).toBe(204);
    expect((await call(s, 'GET', '/v1/mesh/roles/legacy')).body.data).toMatchObject({ policy, lease: '1h0m0s', token_type: 'client', ttl: 3600 });
    expect((await call(s, 'POST', '/v1/mesh/roles/aliased', { body: { policies: ['global-management'] } })).status).toBe(204);
    expect((await call(s, 'GET', '/v1/mesh/roles/aliased')).body.data).toMatchObject({ mesh_policies: ['global-management'], policies: ['global-management'], token_type: 'client', lease: '0s' });
    expect((await call(s, 'POST', '/v1/mesh/roles/mgmt', { body: { token_type: 'management' } })).status).toBe(204);
    const m = await call(s, 'GET', '/v1/mesh/creds/mgmt');
    expect(m.status).toBe(200);
    const self = await fetch(`${old.address}/v1/acl/token/self`, { headers: { 'x-mesh-token': m.body.data.token } });
    expect(((await self.json()) as any).Policies).toEqual([{ Name: 'global-management' }]);
    expect((await call(s, 'POST', '/v1/mesh/roles/bad', { body: { token_type: 'root' } })).status).toBe(400);
    expect((await call(s, 'POST', '/v1/mesh/roles/bad', { body: { policy: 'not base64!' } })).body.errors[0]).toMatch(/base64/);
  });
});

describe('roles', () => {
  test('create, read, list, delete (also absent); comma-separated lists', async () => {
    expect((await call(s, 'GET', '/v1/mesh/roles/r')).status).toBe(404);
    const w = await call(s, 'POST', '/v1/mesh/roles/r', {
      body: { mesh_policies: 'read-web, ops', service_identities: 'web:dc1,dc2,db:dc1', node_identities: 'n1:dc1', ttl: '1h', local: true },
    });
    expect(w.status).toBe(204);
    expect((await call(s, 'GET', '/v1/mesh/roles/r')).body.data).toEqual({
      mesh_policies: ['read-web', 'ops'], mesh_roles: [], service_identities: ['web:dc1,dc2', 'db:dc1'], node_identities: ['n1:dc1'],
      mesh_namespace: 'default', partition: 'default', local: true, ttl: 3600, max_ttl: 0,
    });
    await call(s, 'POST', '/v1/mesh/roles/q', { body: { mesh_roles: ['admins'] } });
    expect((await call(s, 'GET', '/v1/mesh/roles?list=true')).body.data.keys).toEqual(['q', 'r']);
    expect((await call(s, 'GET', '/v1/consul2/roles?list=true')).status).toBe(404);
    expect((await call(s, 'DELETE', '/v1/mesh/roles/r')).status).toBe(204);
    expect((await call(s, 'DELETE', '/v1/mesh/roles/r')).status).toBe(204);
    expect((await call(s, 'GET', '/v1/mesh/roles/r')).status).toBe(404);
  });

  test('version rules of mesh 1.11+: one of policies/roles/identities; removed fields refused; identity formats', async () => {
    // The configured mesh (the emulator, 1.13) tells the engine its version.
    await call(s, 'POST', '/v1/mesh/config/access', { body: { address: hostPort(), token: MGMT } });
    const bad: [object, RegExp][] = [
      [{}, /^Use either a list of policies or roles, or a set of service or node identities$/],
      [{ mesh_policies: [], local: true }, /^Use either/],
      [{ mesh_policies: ['p'], token_type: 'management' }, /^"token_type" was removed in mesh 1\.11/],
      [{ policy: 'a2V5', mesh_policies: ['p'] }, /^"policy" was removed in mesh 1\.11/],
      [{ policies: ['p'] }, /^"policies" was removed in mesh 1\.11/],
      [{ lease: '1h', mesh_policies: ['p'] }, /^"lease" was removed in mesh 1\.11/],
      [{ node_identities: ['n1'] }, /^invalid node identity "n1": expected <node>:<datacenter>$/],
      [{ service_identities: [':dc1'] }, /^invalid service identity ":dc1"/],
      [{ mesh_policies: ['p'], ttl: '2h', max_ttl: '1h' }, /^ttl cannot be greater than max_ttl$/],
    ];
    for (const [body, msg] of bad) {
      const a = await call(s, 'POST', '/v1/mesh/roles/bad', { body });
      expect(a.status).toBe(400);
      expect(a.body.errors[0]).toMatch(msg);
    }
    expect((await call(s, 'GET', '/v1/mesh/roles/bad')).status).toBe(404);
  });
});

describe('credentials minted on the mesh emulator', () => {
  test('a leased token the mesh accepts, with the rules of the role', async () => {
    await call(s, 'POST', '/v1/mesh/config/access', { body: { address: hostPort(), token: MGMT } });
    await call(s, 'POST', '/v1/mesh/roles/web', { body: { service_identities: ['web:dc1'], ttl: '30m' } });
    const a = await call(s, 'GET', '/v1/mesh/creds/web');
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ lease_duration: 1800, renewable: true, data: { local: false, mesh_namespace: 'default', partition: 'default' } });
    expect(a.body.lease_id).toMatch(/^mesh\/creds\/web\/.+/);
    const token = a.body.data.token;
    expect((await mesh.call('GET', '/v1/discovery-chain/web', { token })).status).toBe(200);
    expect((await mesh.call('GET', '/v1/discovery-chain/db', { token })).status).toBe(403);
    const b = await call(s, 'GET', '/v1/mesh/creds/web');
    expect(b.body.data.token).not.toBe(token);
    const listed = await mesh.call('GET', '/__admin/tokens');
    expect(listed.body.map((t: any) => t.accessorId)).toEqual(expect.arrayContaining([a.body.data.accessor, b.body.data.accessor]));
  });

  test('policies of the role are the token\'s; an unknown policy, an absent role or an unreachable mesh fail', async () => {
    await call(s, 'POST', '/v1/mesh/config/access', { body: { address: hostPort(), token: MGMT } });
    await call(s, 'POST', '/v1/mesh/roles/admin', { body: { mesh_policies: ['global-management'], ttl: 60 } });
    const a = await call(s, 'GET', '/v1/mesh/creds/admin');
    expect((await mesh.call('GET', '/v1/discovery-chain/anything', { token: a.body.data.token })).status).toBe(200);
    await call(s, 'POST', '/v1/mesh/roles/ghost', { body: { mesh_policies: ['no-such-policy'] } });
    const g = await call(s, 'GET', '/v1/mesh/creds/ghost');
    expect(g.status).toBe(500);
    expect(g.body.errors[0]).toMatch(/cannot find policy "no-such-policy"/);
    expect(await call(s, 'GET', '/v1/mesh/creds/none')).toMatchObject({ status: 400, body: { errors: ['role "none" not found'] } });
    await call(s, 'POST', '/v1/mesh/config/access', { body: { address: hostPort(), token: 'wrong' } });
    const w = await call(s, 'GET', '/v1/mesh/creds/admin');
    expect(w.status).toBe(500);
    expect(w.body.errors[0]).not.toContain('wrong"');
  });
});

describe('lease expiry', () => {
  test('the token is revoked on the mesh when its lease expires', async () => {
    const clock = new ManualClock();
    await s.stop();
    s = await startSecrets({ mesh: 'mesh' }, clock);
    await call(s, 'POST', '/v1/mesh/config/access', { body: { address: hostPort(), token: MGMT } });
    await call(s, 'POST', '/v1/mesh/roles/short', { body: { service_identities: ['web'], ttl: 1 } });
    const a = await call(s, 'GET', '/v1/mesh/creds/short');
    expect(a.body.lease_duration).toBe(1);
    const token = a.body.data.token;
    expect((await mesh.call('GET', '/v1/discovery-chain/web', { token })).status).toBe(200);
    await advance(s, clock, 999);
    expect((await mesh.call('GET', '/v1/discovery-chain/web', { token })).status).toBe(200);
    await advance(s, clock, 1);
    expect((await mesh.call('GET', '/v1/discovery-chain/web', { token })).status).toBe(403);
    const listed = await mesh.call('GET', '/__admin/tokens');
    expect(listed.body.map((t: any) => t.accessorId)).not.toContain(a.body.data.accessor);
  });
});
