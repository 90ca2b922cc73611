import { MeshEmulator } from '../../lib/mesh/emulator/mesh-emulator';
import { startConsul, RealConsul } from '../support/consul';
import { ConformanceRecorder } from '../support/conformance-snapshots';
import { startWorld, TestWorld } from '../support/harness';
import { realTools } from '../support/real-tools';

/**
 * The mesh emulator in its Consul 1.16 shape held to a real Consul 1.16 (ACLs on, a management
 * token): the same requests to both, the answers compared (status, body, message) with what
 * differs by run normalised (indexes, hashes, ids, times, the trust domain). Each difference the
 * emulator had is a test here; those that remain are listed in docs/emulator.md. Without Consul, the
 * emulator's answers are compared with Consul's recorded ones (snapshots/mesh.json; test/conformance/README.md).
 */
describe('mesh emulator conformance with Consul 1.16', () => {
  const real = new ConformanceRecorder('mesh', 'CONSUL');
  let consul: RealConsul | undefined;
  let world: TestWorld;
  let emuToken: string;
  let realToken = '';

  beforeAll(async () => {
    [consul, world] = await Promise.all([real.live ? startConsul(realTools().CONSUL!, { acls: true }) : undefined, startWorld({ meshShape: 'consul-1.16' })]);
    emuToken = world.env.MESH_HTTP_TOKEN!;
    realToken = consul?.managementToken ?? '';
  });
  afterAll(async () => {
    await Promise.all([consul?.stop(), world?.stop()]);
  });

  const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
  /** What differs by server and by run: indexes, hashes, ids, times, the trust domain. */
  const normalise = (text: string): string => text
    .replace(/"(CreateIndex|ModifyIndex|Hash)":\s*\d+/g, '"$1":0')
    .replace(/"Hash":\s*"[^"]*"/g, '"Hash":"H"')
    .replace(/"CreateTime":\s*"[^"]*"/g, '"CreateTime":"T"')
    .replace(/internal\.[^".]+\.consul/g, 'internal.TRUST.consul')
    .replace(/emu-mgmt-/g, '')
    .replace(UUID, 'UUID');

  type Answer = { status: number; body: unknown; filtered: string | null };
  const ask = async (base: string, token: string, method: string, path: string, body?: unknown): Promise<Answer> => {
    const r = await fetch(`${base}${path}`, {
      method, headers: { 'X-Consul-Token': token }, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = normalise(await r.text());
    let parsed: unknown = text.trim();
    try { parsed = JSON.parse(text); } catch { /* a plain-text message */ }
    return { status: r.status, body: parsed, filtered: r.headers.get('x-consul-results-filtered-by-acls') };
  };
  /** The same request to both; answers [emulator, real] (Consul's live, or recorded). */
  const both = async (method: string, path: string, body?: unknown, tokens?: [string, string]) => Promise.all([
    ask(world.env.MESH_HTTP_ADDR!, tokens?.[0] ?? emuToken, method, path, body),
    real.real(`${method} ${path}${tokens ? ' (a token of its own)' : ''}`, body,
      () => ask(consul!.address, tokens?.[1] ?? realToken, method, path, body)),
  ]);
  const same = async (method: string, path: string, body?: unknown, tokens?: [string, string]): Promise<Answer> => {
    const [emu, real] = await both(method, path, body, tokens);
    expect({ request: `${method} ${path}`, ...emu }).toEqual({ request: `${method} ${path}`, ...real });
    return real;
  };

  real.test('a protocol written as "HTTP" is stored as "http"; entries carry the 1.16 fields (Hash, empty structs), no Namespace', async () => {
    expect((await same('PUT', '/v1/config', { Kind: 'service-defaults', Name: 'web', Protocol: 'HTTP' })).body).toBe(true);
    const got = await same('GET', '/v1/config/service-defaults/web');
    expect(got.body).toMatchObject({ Protocol: 'http', Hash: 0 });
    await same('GET', '/v1/config/service-defaults');
  });

  real.test('split weights are stored rounded to 0.01; negative weights summing to 100 are accepted', async () => {
    await same('PUT', '/v1/config', { Kind: 'service-resolver', Name: 'web', Subsets: { v1: { Filter: 'Service.Meta.version == v1' }, v2: { Filter: 'Service.Meta.version == v2' } } });
    expect((await same('PUT', '/v1/config', { Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: 66.667, ServiceSubset: 'v1' }, { Weight: 33.333, ServiceSubset: 'v2' }] })).body).toBe(true);
    expect((await same('GET', '/v1/config/service-splitter/web')).body).toMatchObject({ Splits: [{ Weight: 66.67 }, { Weight: 33.33 }] });
    expect((await same('PUT', '/v1/config', { Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: -10, ServiceSubset: 'v1' }, { Weight: 110, ServiceSubset: 'v2' }] })).body).toBe(true);
    await same('GET', '/v1/config/service-splitter/web');
  });

  real.test('a route RequestTimeout of -1s is accepted', async () => {
    expect((await same('PUT', '/v1/config', {
      Kind: 'service-router', Name: 'web', Routes: [{ Match: { HTTP: { PathPrefix: '/a' } }, Destination: { RequestTimeout: '-1s' } }],
    })).body).toBe(true);
    await same('GET', '/v1/config/service-router/web');
  });

  real.test('an unknown kind in a path is 500 with the kind named', async () => {
    expect(await same('GET', '/v1/config/bogus/x')).toMatchObject({ status: 500, body: 'invalid config entry kind: bogus' });
    await same('GET', '/v1/config/bogus');
  });

  real.test('?cas= with no value is no check-and-set; DELETE of an absent entry with cas answers true', async () => {
    expect((await same('PUT', '/v1/config?cas=', { Kind: 'service-defaults', Name: 'casx', Protocol: 'http' })).body).toBe(true);
    expect((await same('DELETE', '/v1/config/service-defaults/nope?cas=5')).body).toBe(true);
    expect((await same('DELETE', '/v1/config/service-defaults/nope')).body).toEqual({});
    // A write that changes nothing succeeds whatever its cas; one that changes something is checked.
    expect((await same('PUT', '/v1/config?cas=0', { Kind: 'service-defaults', Name: 'casx', Protocol: 'http' })).body).toBe(true);
    expect((await same('PUT', '/v1/config?cas=0', { Kind: 'service-defaults', Name: 'casx', Protocol: 'grpc' })).body).toBe(false);
  });

  real.test('not found, an unknown key and an undecodable body: the same status and message', async () => {
    expect(await same('GET', '/v1/config/service-defaults/nope')).toMatchObject({ status: 404, body: 'Config entry not found for "service-defaults" / "nope"' });
    expect(await same('PUT', '/v1/config', { Kind: 'service-defaults', Name: 'x', Bogus: 1 })).toMatchObject({ status: 400 });
    await same('PUT', '/v1/config', { Kind: 'service-splitter', Name: 'x', Splits: [{ Weight: 100, Bogus: 1 }] });
    // Go's JSON parser and JavaScript's word a syntax error differently: the status and the prefix agree.
    const [emu, real] = await both('PUT', '/v1/config', 'nope');
    expect([emu.status, real.status]).toEqual([400, 400]);
    for (const a of [emu, real]) expect(String(a.body)).toMatch(/^Request decoding failed: /);
  });

  real.test('the Community Edition refuses the Enterprise ns parameter and Namespace key', async () => {
    expect((await same('GET', '/v1/config/service-defaults/web?ns=default')).status).toBe(400);
    expect((await same('PUT', '/v1/config', { Kind: 'service-defaults', Name: 'web', Protocol: 'http', Namespace: 'default' })).status).toBe(400);
    expect((await same('GET', '/v1/discovery-chain/web?ns=default')).status).toBe(400);
  });

  real.test('acl/token/self answers the SecretID and the policies', async () => {
    const got = await same('GET', '/v1/acl/token/self');
    expect(got.body).toMatchObject({ SecretID: 'UUID', Policies: [{ ID: 'UUID', Name: 'global-management' }] });
  });

  real.test('a token created with a given AccessorID and SecretID keeps them; a taken, invalid or reserved one is refused alike', async () => {
    const accessor = '5e1f0a2b-0000-4000-8000-00000000a001';
    const body = { AccessorID: accessor, SecretID: '5e1f0a2b-0000-4000-8000-00000000b001', Description: 'given ids' };
    const [emu, real] = await both('PUT', '/v1/acl/token', body);
    for (const a of [emu, real]) expect({ status: a.status, ids: [(a.body as any).AccessorID, (a.body as any).SecretID] }).toEqual({ status: 200, ids: ['UUID', 'UUID'] });
    expect((await ask(world.env.MESH_HTTP_ADDR!, emuToken, 'GET', `/v1/acl/token/${accessor}`)).status).toBe(200);
    await same('PUT', '/v1/acl/token', body);
    await same('PUT', '/v1/acl/token', { AccessorID: accessor.replace('a001', 'a002'), SecretID: body.SecretID });
    await same('PUT', '/v1/acl/token', { AccessorID: 'not-a-uuid' });
    await same('PUT', '/v1/acl/token', { AccessorID: '00000000-0000-0000-0000-000000000009' });
    await same('PUT', '/v1/acl/token', { Local: true, ServiceIdentities: [{ ServiceName: 'web', Datacenters: ['dc1'] }] });
  });

  real.test('a list the token\'s ACL filtered carries X-Consul-Results-Filtered-By-Acls: true', async () => {
    const emu = world.emulator.apis.mesh as MeshEmulator;
    const limitedEmu = emu.createToken({ serviceRead: ['casx'] }).secretId;
    // The same token on Consul, made live only (a recorded answer needs none).
    let limitedReal = '';
    if (consul) {
      const pol = await ask(consul.address, realToken, 'PUT', '/v1/acl/policy', { Name: 'read-casx', Rules: 'service "casx" { policy = "read" }' });
      expect(pol.status).toBe(200);
      const tok = await fetch(`${consul.address}/v1/acl/token`, {
        method: 'PUT', headers: { 'X-Consul-Token': realToken }, body: JSON.stringify({ Policies: [{ Name: 'read-casx' }] }),
      });
      limitedReal = (await tok.json() as { SecretID: string }).SecretID;
    }
    const listed = await same('GET', '/v1/config/service-defaults', undefined, [limitedEmu, limitedReal]);
    expect(listed).toMatchObject({ filtered: 'true', body: [{ Name: 'casx' }] });
  });

  real.test('a write that makes a cycle is refused with the cycle (the real server starts it at either entry)', async () => {
    for (const s of ['ca', 'cb']) await same('PUT', '/v1/config', { Kind: 'service-defaults', Name: s, Protocol: 'http' });
    await same('PUT', '/v1/config', { Kind: 'service-splitter', Name: 'ca', Splits: [{ Weight: 100, Service: 'cb' }] });
    const [emu, real] = await both('PUT', '/v1/config', { Kind: 'service-splitter', Name: 'cb', Splits: [{ Weight: 100, Service: 'ca' }] });
    expect([emu.status, real.status]).toEqual([500, 500]);
    const cycle = /^detected circular reference: \[splitter:c[ab]\.default\.default -> splitter:c[ab]\.default\.default -> splitter:c[ab]\.default\.default\]$/;
    expect(String(emu.body)).toMatch(cycle);
    expect(String(real.body)).toMatch(cycle);
  });

  real.test('the discovery chain: partitioned target ids and node names, local mesh-gateway modes, chain-level Default', async () => {
    await same('PUT', '/v1/config', { Kind: 'proxy-defaults', Name: 'global', Config: { protocol: 'http' }, MeshGateway: { Mode: 'local' } });
    await same('PUT', '/v1/config', { Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: 90, ServiceSubset: 'v1' }, { Weight: 10, ServiceSubset: 'v2' }] });
    await same('PUT', '/v1/config', {
      Kind: 'service-router', Name: 'web', Routes: [{ Match: { HTTP: { PathPrefix: '/admin' } }, Destination: { Service: 'admin', RequestTimeout: '30s' } }],
    });
    const [emu, real] = await both('GET', '/v1/discovery-chain/web');
    const chain = (a: Answer) => {
      const { AutoVirtualIPs: _a, ManualVirtualIPs: _m, ...c } = (a.body as { Chain: Record<string, unknown> }).Chain;
      return c;
    };
    expect(real.status).toBe(200);
    expect(chain(emu)).toEqual(chain(real));
    const [emuOver, realOver] = await both('POST', '/v1/discovery-chain/web', { OverrideConnectTimeout: '7s', OverrideProtocol: 'grpc', OverrideMeshGateway: { Mode: 'remote' } });
    expect(chain(realOver)).toMatchObject({ CustomizationHash: 'b94f529a' });
    expect(chain(emuOver)).toEqual(chain(realOver));
    // Nested splitters flattened: weights multiplied and rounded to 0.01, each inner split's definition kept.
    for (const n of ['nest', 'inner']) await same('PUT', '/v1/config', { Kind: 'service-defaults', Name: n, Protocol: 'http' });
    await same('PUT', '/v1/config', { Kind: 'service-resolver', Name: 'inner', Subsets: { a: {}, b: {} } });
    await same('PUT', '/v1/config', { Kind: 'service-resolver', Name: 'nest', Subsets: { a: {} } });
    await same('PUT', '/v1/config', { Kind: 'service-splitter', Name: 'inner', Splits: [{ Weight: 33.33, ServiceSubset: 'a' }, { Weight: 66.67, ServiceSubset: 'b' }] });
    await same('PUT', '/v1/config', { Kind: 'service-splitter', Name: 'nest', Splits: [{ Weight: 50, Service: 'inner' }, { Weight: 50, ServiceSubset: 'a' }] });
    const [emuNest, realNest] = await both('GET', '/v1/discovery-chain/nest');
    expect(chain(realNest)).toMatchObject({ Nodes: { 'splitter:nest.default.default': { Splits: [{ Weight: 16.67 }, { Weight: 33.34 }, { Weight: 50 }] } } });
    expect(chain(emuNest)).toEqual(chain(realNest));
    const [emuDefault, realDefault] = await both('GET', '/v1/discovery-chain/other');
    expect(chain(emuDefault)).toEqual(chain(realDefault));
    expect(chain(realDefault)).toMatchObject({ Default: true, StartNode: 'resolver:other.default.default.dc1' });
  });
});
