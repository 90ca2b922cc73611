import * as fs from 'fs';
import * as http from 'http';
import { AddressInfo } from 'net';
import * as path from 'path';
import { Client } from 'pg';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { LocalBackend } from '../../lib/core/state/local-backend';
import { PostgresBackend } from '../../lib/core/state/postgres-backend';
import { StateBackend } from '../../lib/core/state/state-model';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';
import { startPostgres, TestPostgres } from '../support/postgres';

/**
 * A proxy in front of the secrets API that, as each KV write arrives and before passing it on,
 * reads the stack's state as another process would (what a crash at that moment leaves): the
 * write's intent must be there already.
 */
async function intentCheckingProxy(target: string, backend: StateBackend, stack: string, prefix: string): Promise<{ url: string; seen: Map<string, string | undefined>; close(): Promise<void> }> {
  const seen = new Map<string, string | undefined>();
  const t = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const key = new RegExp(`^/v1/secret/data/(${prefix}/[^?]+)`).exec(req.url ?? '')?.[1];
      if (key && (req.method === 'POST' || req.method === 'PUT')) {
        const doc = await backend.read(stack);
        const rec = Object.values(doc?.resources ?? {}).find((r) => r.spec.path === key);
        seen.set(key, rec?.status);
      }
      const up = http.request({ host: t.hostname, port: t.port, method: req.method, path: req.url, headers: { ...req.headers, host: t.host }, agent }, (u) => {
        res.writeHead(u.statusCode ?? 502, u.headers);
        u.pipe(res);
      });
      up.on('error', () => { res.writeHead(502); res.end(); });
      up.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: async () => { server.closeAllConnections(); await new Promise<void>((r) => server.close(() => r())); agent.destroy(); },
  };
}

const N = 40;
const app = (prefix: string, n: number) => synthApp((stack) => {
  for (let i = 0; i < n; i++) new KvSecret(stack, `kv${i}`, { path: `${prefix}/s${i}`, data: { n: String(i) } });
}, 'grouped');
const created = (prefix: string) => Array.from({ length: N }, (_, i) => `${prefix}/s${i + 1}`).sort();

describe('state writes of concurrent creates are grouped; each intent is durable before its create', () => {
  let world: TestWorld;
  let pg: TestPostgres;
  beforeAll(async () => {
    world = await startWorld({ latencyMs: 10 });
    pg = await startPostgres();
  });
  afterAll(async () => {
    await world?.stop();
    await pg?.stop();
  });

  /** Applies one secret (the stack's state then exists), then N more at once through the proxy. */
  async function applyThroughProxy(env: NodeJS.ProcessEnv, backend: StateBackend, prefix: string): Promise<Map<string, string | undefined>> {
    const seed = await cliAsync(['apply', '--synth-dir', app(prefix, 1), '--auto-approve'], env);
    expect(seed.stderr).toBe('');
    expect(seed.status).toBe(0);
    const proxy = await intentCheckingProxy(world.env.SECRETS_ADDR!, backend, 'grouped', prefix);
    try {
      const apply = await cliAsync(['apply', '--synth-dir', app(prefix, N + 1), '--auto-approve', '--parallelism', '10'], { ...env, SECRETS_ADDR: proxy.url });
      expect(apply.stderr).toBe('');
      expect(apply.status).toBe(0);
    } finally {
      await proxy.close();
    }
    return proxy.seen;
  }

  test('local state: every create found its intent on disk, and the apply wrote fewer journal lines than it made creates', async () => {
    const env = { ...world.env, TMPDIR: process.env.TMPDIR, CONVERGE_DIR: path.join(world.dir, 'local', '.converge') };
    // Journal lines are counted as they are written: the apply's last whole write removes the journal.
    const dir = path.join(env.CONVERGE_DIR, 'stacks', 'grouped');
    const lines = new Set<number>();
    const backend = new LocalBackend(env.CONVERGE_DIR);
    const read = backend.read.bind(backend);
    backend.read = async (stack) => {
      const doc = await read(stack);
      const journal = path.join(dir, 'state.journal');
      if (fs.existsSync(journal)) for (const l of fs.readFileSync(journal, 'utf8').split('\n').filter(Boolean)) lines.add(JSON.parse(l).serial);
      return doc;
    };
    const seen = await applyThroughProxy(env, backend, 'local');
    expect([...seen.keys()].sort()).toEqual(created('local'));
    expect([...seen.values()].every((s) => s === 'creating')).toBe(true);
    // The intents of the 40 creates (and the records of those done) were on disk in fewer lines than creates.
    expect(lines.size).toBeGreaterThan(0);
    expect(lines.size).toBeLessThan(N);
  });

  test('PostgreSQL state: every create found its intent in the database, and the apply inserted fewer journal rows than it made creates', async () => {
    const env = { ...world.env, TMPDIR: process.env.TMPDIR, CONVERGE_DIR: path.join(world.dir, 'pg', '.converge'), CONVERGE_STATE: `${pg.url}?table=grouped_state` };
    const backend = new PostgresBackend(env.CONVERGE_STATE);
    const c = new Client({ connectionString: pg.url });
    await c.connect();
    try {
      // Rows counted as they are inserted (a trigger): the apply's last whole write deletes them.
      await backend.stacks(); // creates the tables
      await c.query('CREATE TABLE journal_rows_inserted (serial bigint NOT NULL)');
      await c.query('CREATE FUNCTION note_journal_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO journal_rows_inserted VALUES (NEW.serial); RETURN NEW; END $$');
      await c.query('CREATE TRIGGER note_journal_row AFTER INSERT ON grouped_journal FOR EACH ROW EXECUTE FUNCTION note_journal_row()');
      const seen = await applyThroughProxy(env, backend, 'pg');
      expect([...seen.keys()].sort()).toEqual(created('pg'));
      expect([...seen.values()].every((s) => s === 'creating')).toBe(true);
      const rows = Number((await c.query<{ n: string }>('SELECT count(*) AS n FROM journal_rows_inserted')).rows[0].n);
      expect(rows).toBeGreaterThan(0);
      expect(rows).toBeLessThan(N);
      expect((await c.query('SELECT * FROM grouped_journal')).rows).toEqual([]);
    } finally {
      await c.end();
      await backend.close();
    }
  });
});
