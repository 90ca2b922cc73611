import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ServedApi } from '../../lib/core/emulator-kit/server';
import { MeshEmulator } from '../../lib/mesh/emulator/mesh-emulator';
import { PlatformEmulator } from '../../lib/platform/emulator/platform-emulator';
import { SecretsEmulator } from '../../lib/secrets/emulator/secrets-emulator';

const TOKEN = 'journal-test-token';
const apis = {
  secrets: () => new SecretsEmulator({ rootToken: TOKEN }),
  mesh: () => new MeshEmulator({ managementToken: TOKEN }),
  platform: () => new PlatformEmulator({ adminToken: TOKEN, rateLimit: 0 }),
};
type Name = keyof typeof apis;

async function call(s: ServedApi, method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${s.address}${p}`, {
    method,
    headers: { 'x-secrets-token': TOKEN, 'x-mesh-token': TOKEN, 'authorization': `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try { parsed = JSON.parse(text); } catch { /* plain text */ }
  return { status: res.status, body: parsed };
}

/** Stops serving without the clean stop's compaction: what is on disk is what a crash leaves. */
async function abandon(s: ServedApi): Promise<void> {
  await s.api.close?.();
  await (s as unknown as { journal?: { fh?: { close(): Promise<void> } } }).journal?.fh?.close(); // the descriptor only: nothing more is written
  await new Promise<void>((r) => { s.server.close(() => r()); s.server.closeAllConnections(); });
}

let dir: string;
beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-journal-')); });
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const start = (name: Name) => ServedApi.start(apis[name](), { port: 0, dataDir: dir });

/** Writes, overwrites and deletes through each API; the journal alone must bring them back. */
const scenarios: Record<Name, { write(s: ServedApi): Promise<void>; check(s: ServedApi): Promise<void> }> = {
  secrets: {
    async write(s) {
      for (let i = 0; i < 20; i++) expect((await call(s, 'POST', `/v1/secret/data/j/k${i}`, { data: { v: `value-${i}` } })).status).toBe(200);
      await call(s, 'POST', '/v1/secret/data/j/k1', { data: { v: 'second' } });
      expect((await call(s, 'DELETE', '/v1/secret/metadata/j/k2')).status).toBe(204);
      await call(s, 'POST', '/v1/secret/config', { max_versions: 7 });
      await call(s, 'POST', '/v1/totp/keys/t1', { generate: false, key: 'JBSWY3DPEHPK3PXP', issuer: 'x', account_name: 'y' });
    },
    async check(s) {
      expect((await call(s, 'GET', '/v1/secret/data/j/k0')).body.data.data).toEqual({ v: 'value-0' });
      expect((await call(s, 'GET', '/v1/secret/data/j/k1')).body.data).toMatchObject({ data: { v: 'second' }, metadata: { version: 2 } });
      expect((await call(s, 'GET', '/v1/secret/data/j/k2')).status).toBe(404);
      expect((await call(s, 'GET', '/v1/secret/data/j/k19')).body.data.data).toEqual({ v: 'value-19' });
      expect((await call(s, 'GET', '/v1/secret/config')).body.data.max_versions).toBe(7);
      expect((await call(s, 'GET', '/v1/totp/keys/t1')).status).toBe(200);
    },
  },
  mesh: {
    async write(s) {
      for (let i = 0; i < 10; i++) expect((await call(s, 'PUT', '/v1/config', { Kind: 'service-defaults', Name: `svc${i}`, Protocol: 'http' })).status).toBe(200);
      expect((await call(s, 'DELETE', '/v1/config/service-defaults/svc3')).status).toBe(200);
    },
    async check(s) {
      expect((await call(s, 'GET', '/v1/config/service-defaults/svc9')).body).toMatchObject({ Name: 'svc9', Protocol: 'http' });
      expect((await call(s, 'GET', '/v1/config/service-defaults/svc3')).status).toBe(404);
      expect((await call(s, 'GET', '/v1/config/service-defaults')).body).toHaveLength(9);
    },
  },
  platform: {
    async write(s) {
      for (let i = 0; i < 5; i++) {
        const r = await call(s, 'POST', '/api/v2/organizations', { data: { type: 'organizations', attributes: { name: `org-${i}`, email: `o${i}@example.com` } } });
        expect(r.status).toBe(201);
      }
      expect((await call(s, 'PATCH', '/api/v2/organizations/org-1', { data: { type: 'organizations', attributes: { email: 'new@example.com' } } })).status).toBe(200);
      expect((await call(s, 'DELETE', '/api/v2/organizations/org-2')).status).toBe(204);
    },
    async check(s) {
      expect((await call(s, 'GET', '/api/v2/organizations/org-0')).status).toBe(200);
      expect((await call(s, 'GET', '/api/v2/organizations/org-1')).body.data.attributes.email).toBe('new@example.com');
      expect((await call(s, 'GET', '/api/v2/organizations/org-2')).status).toBe(404);
    },
  },
};

describe.each(Object.keys(apis) as Name[])('%s emulator journal', (name) => {
  test('every answered write is back after a stop without compaction, from the journal', async () => {
    const a = await start(name);
    await scenarios[name].write(a);
    await abandon(a);
    expect(fs.readFileSync(path.join(dir, `${name}.journal`), 'utf8').split('\n').length).toBeGreaterThan(2);
    const b = await start(name);
    try { await scenarios[name].check(b); } finally { await b.stop(); }
  });

  test('a torn last line is skipped; the data files are private (0600)', async () => {
    const a = await start(name);
    await scenarios[name].write(a);
    await abandon(a);
    fs.appendFileSync(path.join(dir, `${name}.journal`), '{"c":["half a batch');
    const b = await start(name);
    try {
      await scenarios[name].check(b);
      for (const f of fs.readdirSync(dir)) expect((fs.statSync(path.join(dir, f)).mode & 0o777).toString(8)).toBe('600');
    } finally { await b.stop(); }
  });

  test('a clean stop compacts into the snapshot and empties the journal', async () => {
    const a = await start(name);
    await scenarios[name].write(a);
    await a.stop();
    expect(fs.readFileSync(path.join(dir, `${name}.journal`), 'utf8').trim().split('\n')).toHaveLength(1);
    const b = await start(name);
    try { await scenarios[name].check(b); } finally { await b.stop(); }
  });
});

test('a journal older than the snapshot (a crash between the two renames of a compaction) is not replayed', async () => {
  const a = await start('mesh');
  await call(a, 'PUT', '/v1/config', { Kind: 'service-defaults', Name: 'web', Protocol: 'http' });
  await abandon(a);
  const staleJournal = fs.readFileSync(path.join(dir, 'mesh.journal'));
  const b = await start('mesh'); // compacts at start: the entry is now in the snapshot
  await call(b, 'PUT', '/v1/config', { Kind: 'service-defaults', Name: 'web', Protocol: 'grpc' });
  await b.stop();
  fs.writeFileSync(path.join(dir, 'mesh.journal'), staleJournal); // says Protocol http, for an older snapshot
  const c = await start('mesh');
  try {
    expect((await call(c, 'GET', '/v1/config/service-defaults/web')).body.Protocol).toBe('grpc');
  } finally { await c.stop(); }
});

test('a corrupt line in the middle of a journal is an error naming the file, not silent data loss', async () => {
  const a = await start('mesh');
  for (let i = 0; i < 10; i++) await call(a, 'PUT', '/v1/config', { Kind: 'service-defaults', Name: `web${i}`, Protocol: 'http' });
  await abandon(a);
  const file = path.join(dir, 'mesh.journal');
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  fs.writeFileSync(file, [lines[0], 'garbage', ...lines.slice(1)].join('\n'));
  await expect(start('mesh')).rejects.toThrow(/mesh\.journal: line 2/);
});

test('concurrent writes share fsyncs (group commit): fewer journal lines than writes', async () => {
  // Journal lines are held until the 200 writes have all been handled, so that the test does not
  // depend on how fast the disk is: what changed while lines were in flight goes into few lines.
  const emulator = apis.secrets();
  let handled = 0;
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const handle = emulator.handle.bind(emulator);
  emulator.handle = async (req) => {
    const answer = await handle(req);
    if (req.method === 'POST' && ++handled === 200) release();
    return answer;
  };
  const open = fs.promises.open;
  const spy = jest.spyOn(fs.promises, 'open').mockImplementation(async (...args: Parameters<typeof open>) => {
    const fh = await open(...args);
    if (!String(args[0]).endsWith('secrets.journal')) return fh;
    const write = fh.write.bind(fh) as (...a: unknown[]) => Promise<unknown>;
    (fh as unknown as { write: unknown }).write = async (...a: unknown[]) => { await gate; return write(...a); };
    return fh;
  });
  const a = await ServedApi.start(emulator, { port: 0, dataDir: dir });
  try {
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => call(a, 'POST', `/v1/secret/data/g/k${i}`, { data: { v: String(i) } })));
    expect(answers.every((r) => r.status === 200)).toBe(true);
  } finally {
    spy.mockRestore();
  }
  await abandon(a);
  const lines = fs.readFileSync(path.join(dir, 'secrets.journal'), 'utf8').trim().split('\n').length - 1;
  expect(lines).toBeLessThan(20);
  const b = await start('secrets');
  try {
    for (const i of [0, 99, 199]) expect((await call(b, 'GET', `/v1/secret/data/g/k${i}`)).body.data.data).toEqual({ v: String(i) });
  } finally { await b.stop(); }
});

test('the journal holds no secret in clear', async () => {
  const a = await start('secrets');
  await call(a, 'POST', '/v1/secret/data/j/hidden', { data: { password: 'planted-journal-secret' } });
  await abandon(a);
  expect(fs.readFileSync(path.join(dir, 'secrets.journal'), 'utf8')).not.toContain('planted-journal-secret');
});
