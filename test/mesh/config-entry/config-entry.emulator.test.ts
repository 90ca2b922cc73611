import { MGMT, serveMesh, Served } from '../emulator/helpers';

let s: Served;
beforeEach(async () => { s = await serveMesh(); });
afterEach(async () => { await s.api.stop(); });

test('PUT, GET with indexes, list and DELETE', async () => {
  const put = await s.call('PUT', '/v1/config', { body: { Kind: 'service-resolver', Name: 'web', connect_timeout: '60s' } });
  expect(put).toMatchObject({ status: 200, body: true });
  const got = await s.call('GET', '/v1/config/service-resolver/web');
  expect(got.status).toBe(200);
  expect(got.body).toEqual({ Kind: 'service-resolver', Name: 'web', ConnectTimeout: '1m0s', Namespace: 'default', CreateIndex: 2, ModifyIndex: 2 });
  expect(got.headers.get('x-mesh-index')).toBe('2');
  await s.call('PUT', '/v1/config', { body: { Kind: 'service-resolver', Name: 'web', ConnectTimeout: '5s' } });
  const again = await s.call('GET', '/v1/config/service-resolver/web');
  expect(again.body).toMatchObject({ CreateIndex: 2, ModifyIndex: 3, ConnectTimeout: '5s' });
  await s.call('PUT', '/v1/config', { body: { Kind: 'service-resolver', Name: 'api' } });
  const list = await s.call('GET', '/v1/config/service-resolver');
  expect(list.body.map((e: any) => e.Name)).toEqual(['api', 'web']);
  const del = await s.call('DELETE', '/v1/config/service-resolver/web');
  expect(del).toMatchObject({ status: 200, body: {} });
  const gone = await s.call('GET', '/v1/config/service-resolver/web');
  expect(gone.status).toBe(404);
  expect(gone.text.trim()).toBe('Config entry not found for "service-resolver" / "web"');
});

test('cas: 0 creates only when absent; else only at the ModifyIndex', async () => {
  expect((await s.call('PUT', '/v1/config?cas=0', { body: { Kind: 'service-defaults', Name: 'web' } })).body).toBe(true);
  expect((await s.call('PUT', '/v1/config?cas=0', { body: { Kind: 'service-defaults', Name: 'web', Protocol: 'grpc' } })).body).toBe(false);
  // As the real server: a write that changes nothing succeeds whatever its cas, and moves no index.
  expect((await s.call('PUT', '/v1/config?cas=0', { body: { Kind: 'service-defaults', Name: 'web' } })).body).toBe(true);
  const idx = (await s.call('GET', '/v1/config/service-defaults/web')).body.ModifyIndex;
  expect((await s.call('PUT', `/v1/config?cas=${idx + 5}`, { body: { Kind: 'service-defaults', Name: 'web', Protocol: 'http' } })).body).toBe(false);
  expect((await s.call('PUT', `/v1/config?cas=${idx}`, { body: { Kind: 'service-defaults', Name: 'web', Protocol: 'http' } })).body).toBe(true);
  expect((await s.call('GET', '/v1/config/service-defaults/web')).body.Protocol).toBe('http');
  expect((await s.call('DELETE', '/v1/config/service-defaults/web?cas=1')).body).toBe(false);
});

test('decoding errors are 400, validation and graph errors 500 with the message', async () => {
  const bad = await s.call('PUT', '/v1/config', { body: '{nope' });
  expect(bad.status).toBe(400);
  expect(bad.text).toMatch(/^Request decoding failed: /);
  const unknownKey = await s.call('PUT', '/v1/config', { body: { Kind: 'service-defaults', Name: 'web', Colour: 'red' } });
  expect(unknownKey.status).toBe(400);
  const weights = await s.call('PUT', '/v1/config', { body: { Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: 60 }, { Weight: 30, Service: 'b' }] } });
  expect(weights.status).toBe(500);
  expect(weights.text.trim()).toBe('the sum of all split weights must be 100, not 90.000000');
  const graph = await s.call('PUT', '/v1/config', { body: { Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: 100 }] } });
  expect(graph.status).toBe(500);
  expect(graph.text.trim()).toBe('discovery chain "web" uses a protocol "tcp" that does not permit advanced routing or splitting behavior');
});

test('deleting an entry a chain needs is refused', async () => {
  await s.call('PUT', '/v1/config', { body: { Kind: 'proxy-defaults', Name: 'global', Config: { protocol: 'http' } } });
  await s.call('PUT', '/v1/config', { body: { Kind: 'service-router', Name: 'web', Routes: [{ Match: { HTTP: { PathPrefix: '/a' } } }] } });
  const del = await s.call('DELETE', '/v1/config/proxy-defaults/global');
  expect(del.status).toBe(500);
  expect(del.text).toMatch(/does not permit advanced routing/);
  expect((await s.call('DELETE', '/v1/config/service-router/web')).status).toBe(200);
  expect((await s.call('DELETE', '/v1/config/proxy-defaults/global')).status).toBe(200);
});

test('namespaces: body Namespace, ns, X-Mesh-Namespace', async () => {
  await s.call('PUT', '/v1/config', { body: { Kind: 'service-defaults', Name: 'web', Namespace: 'team', Protocol: 'grpc' } });
  await s.call('PUT', '/v1/config?ns=other', { body: { Kind: 'service-defaults', Name: 'web', Protocol: 'http' } });
  expect((await s.call('GET', '/v1/config/service-defaults/web')).status).toBe(404);
  expect((await s.call('GET', '/v1/config/service-defaults/web?ns=team')).body).toMatchObject({ Protocol: 'grpc', Namespace: 'team' });
  expect((await s.call('GET', '/v1/config/service-defaults/web', { headers: { 'X-Mesh-Namespace': 'other' } })).body.Protocol).toBe('http');
  expect((await s.call('GET', '/v1/config/service-defaults?ns=*')).body.map((e: any) => e.Namespace)).toEqual(['other', 'team']);
});

test('snapshot and restore keep entries, indexes and tokens but no token secret', async () => {
  await s.call('PUT', '/v1/config', { body: { Kind: 'service-defaults', Name: 'web' } });
  const { secretId } = s.emu.createToken({ serviceRead: ['web'] });
  const snap = JSON.stringify(s.emu.snapshot());
  expect(snap).not.toContain(secretId);
  expect(snap).not.toContain(MGMT);
  const other = await serveMesh();
  try {
    other.emu.restore(JSON.parse(snap));
    expect((await other.call('GET', '/v1/config/service-defaults/web', { token: secretId })).body).toMatchObject({ Name: 'web', ModifyIndex: 2 });
  } finally {
    await other.api.stop();
  }
});

test('state survives a restart through the data directory', async () => {
  const fs = await import('fs');
  const os = await import('os');
  const path = await import('path');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesh-data-'));
  try {
    const a = await serveMesh({ dataDir: dir });
    await a.call('PUT', '/v1/config', { body: { Kind: 'service-resolver', Name: 'web', ConnectTimeout: '3s' } });
    await a.api.stop();
    expect(fs.readFileSync(path.join(dir, 'mesh.json'), 'utf8')).not.toContain(MGMT);
    const b = await serveMesh({ dataDir: dir });
    expect((await b.call('GET', '/v1/config/service-resolver/web')).body).toMatchObject({ ConnectTimeout: '3s', ModifyIndex: 2 });
    expect((await b.call('GET', '/v1/discovery-chain/web')).body.Chain.Nodes['resolver:web.default.dc1'].Resolver.ConnectTimeout).toBe('3s');
    await b.api.stop();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
