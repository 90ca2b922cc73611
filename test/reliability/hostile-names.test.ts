import * as http from 'http';
import { AddressInfo } from 'net';
import fc from 'fast-check';
import { encodePath, HttpClient } from '../../lib/core/http/http-client';
import { Emulator } from '../../lib/bundled-emulator/bundled-emulator';
import { MeshClient } from '../../lib/mesh/client/mesh-client';
import { PlatformClient } from '../../lib/platform/client/platform-client';
import { DatabaseClient } from '../../lib/secrets/database/database-client';
import { DirectoryClient } from '../../lib/secrets/directory/directory-client';
import { KvClient } from '../../lib/secrets/kv/kv-client';
import { MeshTokenClient } from '../../lib/secrets/mesh-token/mesh-token-client';
import { PlatformTokenClient } from '../../lib/secrets/platform-token/platform-token-client';
import { PushMfaClient } from '../../lib/secrets/push-mfa/push-mfa-client';
import { TotpClient } from '../../lib/secrets/totp/totp-client';
import { SecretsClient } from '../../lib/secrets/client/secrets-client';

// Hostile names and paths (`..`, encoded slashes, unicode, very long strings) in the clients' URL
// building: a name is either refused before anything is sent, or lands in its own segment(s),
// decoding back to itself, with nothing a server or proxy would normalise into another object.
const RUNS = 50;
let tried = 0;
// The figure docs/reliability.md reports.
afterAll(() => console.log(`hostile names: ${tried} names and paths tried`));

const hostile = fc.oneof(
  fc.constantFrom('..', '.', 'x/../y', '../y', 'y/..', '%2F', '%2e%2e', '.%2e', 'a%2Fb', 'x?y=1', 'x#frag', 'é名💥', ' ', 'a b',
    '\u0000', '', '/', '//', 'a//b', '/y', 'y/', '\\..\\y', 'x/./y', '%', '%zz', 'a'.repeat(10_000), '..%2Fy'),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.array(fc.constantFrom('..', '.', 'y', '', '%2e', 'é'), { minLength: 1, maxLength: 5 }).map((a) => a.join('/')),
);

/** An HTTP server that records every raw request line and answers 404. */
class Recorder {
  public readonly seen: string[] = [];
  private server!: http.Server;
  public async start(): Promise<string> {
    this.server = http.createServer((req, res) => {
      this.seen.push(req.url ?? '');
      req.resume();
      req.on('end', () => { res.writeHead(404, { 'content-type': 'application/json' }); res.end('{"errors":[]}'); });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  public stop(): Promise<void> {
    return new Promise((r) => { this.server.closeAllConnections(); this.server.close(() => r()); });
  }
}

const DOT_SEGMENT = /^(\.|%2e){1,2}$/i;

/** Whether `raw` addresses exactly `segments` (decoded), with nothing a server would normalise. */
function addressesExactly(raw: string, prefix: string[], segments: string[], suffix: string[]): string | undefined {
  const p = raw.split('?')[0];
  let parsed: string;
  try { parsed = new URL(p, 'http://h').pathname; } catch { return `"${p}" is not a path to a URL parser`; }
  if (parsed !== p) return `"${p}" is normalised by a URL parser`;
  const parts = p.split('/').slice(1);
  if (parts.some((s) => DOT_SEGMENT.test(s))) return `"${p}" holds a dot segment`;
  const want = [...prefix, ...segments, ...suffix];
  if (parts.length !== want.length) return `"${p}" has ${parts.length} segments, not ${want.length}`;
  for (let i = 0; i < want.length; i++) {
    let got: string;
    try { got = decodeURIComponent(parts[i]); } catch { return `"${parts[i]}" does not decode`; }
    if (got !== want[i]) return `segment ${i} of "${p}" decodes to "${got}", not "${want[i]}"`;
  }
  return undefined;
}

describe('encodePath', () => {
  test('refuses dot segments; otherwise every segment decodes back, and no parser normalises the result', () => {
    fc.assert(fc.property(hostile, (p) => {
      tried++;
      let out: string;
      try { out = encodePath(p); } catch (e) {
        // Refused: a dot segment, or a lone surrogate (not encodable as UTF-8).
        if (e instanceof URIError) return;
        expect(p.split('/').some((s) => s === '.' || s === '..')).toBe(true);
        expect((e as Error).message).toContain('..');
        return;
      }
      expect(out).not.toMatch(/[?#\s]/);
      expect(out.split('/').map(decodeURIComponent)).toEqual(p.split('/'));
      // Empty segments ("a//b", a leading or trailing "/") are the one thing encodePath passes on:
      // callers that take a key path refuse them (see the KV client below).
      if (!p.split('/').includes('')) expect(addressesExactly(`/${out}`, [], p.split('/'), [])).toBeUndefined();
    }), { numRuns: RUNS * 4 });
  });
});

describe('domain clients', () => {
  const rec = new Recorder();
  let base: string;
  let platform: PlatformClient;
  let mesh: MeshClient;
  let kv: KvClient;
  beforeAll(async () => {
    base = await rec.start();
    const opts = { retries: 0 };
    platform = new PlatformClient(new HttpClient({ api: 'platform', baseUrl: base, authHeaders: {}, ...opts }));
    mesh = new MeshClient(new HttpClient({ api: 'mesh', baseUrl: base, authHeaders: {}, ...opts }));
    kv = new KvClient(new SecretsClient(new HttpClient({ api: 'secrets', baseUrl: base, authHeaders: {}, ...opts })));
  });
  afterAll(async () => {
    await Promise.all([platform.close(), mesh.close(), kv['secrets'].close()]);
    await rec.stop();
  });

  /** Runs `call`; returns the raw path it sent, or undefined when it refused before sending. */
  async function sent(call: () => Promise<unknown>): Promise<string | undefined> {
    tried++;
    const before = rec.seen.length;
    try { await call(); } catch { /* a refusal or the recorder's 404 */ }
    expect(rec.seen.length - before).toBeLessThanOrEqual(1);
    return rec.seen.length > before ? rec.seen[rec.seen.length - 1] : undefined;
  }

  // Each call puts a name into one segment between a fixed prefix and suffix.
  const singleSegment: [string, (n: string) => Promise<unknown>, string[], string[]][] = [
    ['organizations.show', (n) => platform.organizations.show(n), ['api', 'v2', 'organizations'], []],
    ['organizations.update', (n) => platform.organizations.update(n, { email: 'a@b.io' }), ['api', 'v2', 'organizations'], []],
    ['organizations.destroy', (n) => platform.organizations.destroy(n), ['api', 'v2', 'organizations'], []],
    ['organizations.entitlementSet', (n) => platform.organizations.entitlementSet(n), ['api', 'v2', 'organizations'], ['entitlement-set']],
    ['mesh.getConfigEntry', (n) => mesh.getConfigEntry('service-defaults', n), ['v1', 'config', 'service-defaults'], []],
    ['mesh.deleteConfigEntry', (n) => mesh.deleteConfigEntry('service-defaults', n), ['v1', 'config', 'service-defaults'], []],
    ['mesh.listConfigEntries', (n) => mesh.listConfigEntries(n), ['v1', 'config'], []],
    ['mesh.discoveryChain', (n) => mesh.discoveryChain(n), ['v1', 'discovery-chain'], []],
  ];

  test.each(singleSegment)('%s: a hostile name is refused or stays in its own segment', async (_name, call, prefix, suffix) => {
    await fc.assert(fc.asyncProperty(hostile, async (name) => {
      const raw = await sent(() => call(name));
      if (raw === undefined) return;
      const problem = addressesExactly(raw, prefix, [name], suffix);
      if (problem) throw new Error(`name ${JSON.stringify(name.slice(0, 60))}: ${problem}`);
    }), { numRuns: RUNS });
  });

  test('kv.readConfig: a hostile mount is refused or each of its segments stays one segment', async () => {
    await fc.assert(fc.asyncProperty(hostile, async (m) => {
      const raw = await sent(() => kv.readConfig(m));
      if (raw === undefined) return;
      const problem = addressesExactly(raw, ['v1'], m.split('/'), ['config'])
        ?? (m.split('/').includes('') ? `mount ${JSON.stringify(m)} with an empty segment was sent as "${raw}"` : undefined);
      if (problem) throw new Error(`mount ${JSON.stringify(m.slice(0, 60))}: ${problem}`);
    }), { numRuns: RUNS });
  });

  // The other secrets engine clients: a role, key or connection name is one path segment.
  const engines = () => {
    const sc = kv['secrets'] as SecretsClient;
    return { db: new DatabaseClient(sc), dir: new DirectoryClient(sc), mt: new MeshTokenClient(sc), pt: new PlatformTokenClient(sc),
      mfa: new PushMfaClient(sc), totp: new TotpClient(sc) };
  };
  const engineCalls: [string, (n: string) => Promise<unknown>, string[]][] = [
    ['database.readConnection', (n) => engines().db.readConnection('database', n), ['v1', 'database', 'config']],
    ['database.deleteConnection', (n) => engines().db.deleteConnection('database', n), ['v1', 'database', 'config']],
    ['directory.readRole', (n) => engines().dir.readRole('directory', n), ['v1', 'directory', 'roles']],
    ['directory.deleteRole', (n) => engines().dir.deleteRole('directory', n), ['v1', 'directory', 'roles']],
    ['meshToken.readRole', (n) => engines().mt.readRole('mesh', n), ['v1', 'mesh', 'roles']],
    ['meshToken.deleteRole', (n) => engines().mt.deleteRole('mesh', n), ['v1', 'mesh', 'roles']],
    ['platformToken.readRole', (n) => engines().pt.readRole('platform', n), ['v1', 'platform', 'role']],
    ['platformToken.deleteRole', (n) => engines().pt.deleteRole('platform', n), ['v1', 'platform', 'role']],
    ['totp.readKey', (n) => engines().totp.readKey('totp', n), ['v1', 'totp', 'keys']],
    ['totp.deleteKey', (n) => engines().totp.deleteKey('totp', n), ['v1', 'totp', 'keys']],
    ['pushMfa.get', (n) => engines().mfa.get(n), ['v1', 'identity', 'mfa', 'method', 'pushmfa']],
    ['pushMfa.delete', (n) => engines().mfa.delete(n), ['v1', 'identity', 'mfa', 'method', 'pushmfa']],
  ];
  /**
   * Known unsafe URL building (owner: lib/secrets/client): run as test.failing, see docs/reliability.md.
   * database and directory send "." and ".." as they are (encodeURIComponent).
   */
  const ENGINE_GAPS = new Set<string>([]);

  for (const [name, call, prefix] of engineCalls) {
    (ENGINE_GAPS.has(name) ? test.failing : test)(`${name}: a hostile name is refused or stays in its own segment`, async () => {
      await fc.assert(fc.asyncProperty(hostile, async (n) => {
        const raw = await sent(() => call(n));
        if (raw === undefined) return;
        const problem = addressesExactly(raw, prefix, [n], []);
        if (problem) throw new Error(`name ${JSON.stringify(n.slice(0, 60))}: ${problem}`);
      }), { numRuns: RUNS, examples: [['..'], ['y/'], ['']] });
    });
  }

  // KV key paths may hold slashes: each of the path's segments must land in one segment.
  const kvCalls: [string, (p: string) => Promise<unknown>, string][] = [
    ['read', (p) => kv.read('secret', p), 'data'],
    ['write', (p) => kv.write('secret', p, { a: '1' }), 'data'],
    ['patch', (p) => kv.patch('secret', p, { a: '1' }), 'data'],
    ['subkeys', (p) => kv.subkeys('secret', p), 'subkeys'],
    ['deleteLatest', (p) => kv.deleteLatest('secret', p), 'data'],
    ['deleteVersions', (p) => kv.deleteVersions('secret', p, [1]), 'delete'],
    ['undeleteVersions', (p) => kv.undeleteVersions('secret', p, [1]), 'undelete'],
    ['destroyVersions', (p) => kv.destroyVersions('secret', p, [1]), 'destroy'],
    ['readMetadata', (p) => kv.readMetadata('secret', p), 'metadata'],
    ['writeMetadata', (p) => kv.writeMetadata('secret', p, {}), 'metadata'],
    ['patchMetadata', (p) => kv.patchMetadata('secret', p, {}), 'metadata'],
    ['deleteMetadata', (p) => kv.deleteMetadata('secret', p), 'metadata'],
  ];

  test.each(kvCalls)('kv.%s: a hostile key path is refused or each of its segments stays one segment', async (_n, call, section) => {
    await fc.assert(fc.asyncProperty(hostile, async (p) => {
      const raw = await sent(() => call(p));
      if (raw === undefined) return;
      const problem = addressesExactly(raw, ['v1', 'secret', section], p.split('/'), [])
        ?? (p.split('/').includes('') ? `key path ${JSON.stringify(p)} with an empty segment was sent as "${raw}"` : undefined);
      if (problem) throw new Error(`path ${JSON.stringify(p.slice(0, 60))}: ${problem}`);
    }), { numRuns: RUNS });
  });
});

describe('against the emulator: hostile names never touch another object', () => {
  let emulator: Emulator;
  let platform: PlatformClient;
  let mesh: MeshClient;
  let kv: KvClient;
  const state = () => JSON.stringify([
    (emulator.apis.platform as any).state.organizations,
    [...(emulator.apis.secrets as any).mounts.values()].map((m: any) => m.engine.snapshot()),
    (emulator.apis.mesh as any).snapshot(),
  ]);

  beforeAll(async () => {
    emulator = await Emulator.start({ platformPort: 0, secretsPort: 0, meshPort: 0, platformRateLimit: 0 });
    const e = emulator.env;
    platform = PlatformClient.create({ address: e.PLATFORM_ADDRESS, token: e.PLATFORM_TOKEN, retries: 0 } as any);
    mesh = MeshClient.connect({ address: e.MESH_HTTP_ADDR, token: e.MESH_HTTP_TOKEN, options: { retries: 0 } });
    kv = new KvClient(SecretsClient.connect({ address: e.SECRETS_ADDR, token: e.SECRETS_TOKEN, options: { retries: 0 } }));
    // The victims: objects named `y`, `b` and `a/b` that hostile names try to reach.
    await platform.organizations.create({ name: 'y', email: 'y@y.io' });
    await kv.write('secret', 'b', { v: 'victim' });
    await kv.write('secret', 'a/b', { v: 'victim' });
    await mesh.putConfigEntry({ Kind: 'service-defaults', Name: 'y', Protocol: 'http' } as any);
  });
  afterAll(async () => {
    await Promise.all([platform.close(), mesh.close(), kv['secrets'].close()]);
    await emulator.stop();
  });

  const traversal = fc.constantFrom('x/../y', '../y', 'y/..', '..', '.', '%2e%2e/y', 'x%2F..%2Fy', './y', 'z/../../y', '..%2Fy',
    'a/../b', 'a/./b', 'a//b', '/b', 'b/', 'c/../b', 'a/b/..', 'a/%2e%2e/b');

  test('deletes, updates and writes with traversal names leave the victims unchanged, and reads never return them', async () => {
    const before = state();
    await fc.assert(fc.asyncProperty(traversal, async (n) => {
      const attempts: (() => Promise<unknown>)[] = [
        () => platform.organizations.destroy(n),
        () => platform.organizations.update(n, { email: 'hacked@x.io' }),
        () => mesh.deleteConfigEntry('service-defaults', n),
        () => kv.deleteMetadata('secret', n),
        () => kv.deleteLatest('secret', n),
        () => kv.destroyVersions('secret', n, [1]),
        () => kv.writeMetadata('secret', n, { max_versions: 1 }),
      ];
      for (const a of attempts) { try { await a(); } catch { /* refused */ } }
      for (const read of [() => platform.organizations.show(n), () => mesh.getConfigEntry('service-defaults', n), () => kv.read('secret', n)]) {
        let got: unknown;
        try { got = await read(); } catch { got = undefined; }
        expect(JSON.stringify(got ?? null)).not.toMatch(/victim|"y@y\.io"|"Name":"y"/);
      }
    }), { numRuns: RUNS });
    // Anything the hostile writes created lives under its own (literal) name; the victims are as they were.
    const after = JSON.parse(state());
    const was = JSON.parse(before);
    expect(after[0].y).toEqual(was[0].y);
    expect(JSON.stringify(after[1])).toContain('victim');
    expect(await kv.read('secret', 'b')).toMatchObject({ data: { v: 'victim' } });
    expect(await kv.read('secret', 'a/b')).toMatchObject({ data: { v: 'victim' } });
    expect(await mesh.getConfigEntry('service-defaults', 'y')).toMatchObject({ Name: 'y' });
    expect(await platform.organizations.show('y')).toMatchObject({ email: 'y@y.io' });
  });
});
