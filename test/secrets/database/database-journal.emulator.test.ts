import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Client } from 'pg';
import { ServedApi } from '../../../lib/core/emulator-kit/server';
import { SecretsEmulator } from '../../../lib/secrets/emulator/secrets-emulator';
import { startPostgres, TestPostgres } from '../../support/postgres';
import { ManualClock } from '../../support/fake-clock';
import { advance, call, ROOT_TOKEN } from '../emulator-helpers';


let pg: TestPostgres;
beforeAll(async () => { pg = await startPostgres(); });
afterAll(async () => { await pg.stop(); });

async function sql(q: string): Promise<void> {
  const c = new Client({ connectionString: pg.url });
  await c.connect();
  try { await c.query(q); } finally { await c.end(); }
}

async function canLogin(user: string, password: string): Promise<boolean> {
  const u = new URL(pg.url);
  const c = new Client({ connectionString: `postgresql://${user}:${encodeURIComponent(password)}@${u.host}${u.pathname}` });
  c.on('error', () => undefined);
  try { await c.connect(); await c.query('SELECT 1'); return true; } catch { return false; } finally { await c.end().catch(() => undefined); }
}

/** Stops serving without the clean stop's compaction: what is on disk is what a crash leaves. */
async function abandon(s: ServedApi): Promise<void> {
  await s.api.close?.();
  await (s as unknown as { journal?: { fh?: { close(): Promise<void> } } }).journal?.fh?.close();
  await new Promise<void>((r) => { s.server.close(() => r()); s.server.closeAllConnections(); });
}

test('a rotation done by the emulator\'s timer is journaled when it happens: after a crash the password is the rotated one', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'db-journal-'));
  await sql('DROP ROLE IF EXISTS journaluser; CREATE ROLE journaluser WITH LOGIN PASSWORD \'initial-pass\'');
  const u = new URL(pg.url);
  const clock = new ManualClock(Date.now());
  const first = await ServedApi.start(new SecretsEmulator({ rootToken: ROOT_TOKEN, clock }), { port: 0, dataDir });
  try {
    expect((await call(first, 'POST', '/v1/database/config/pg', {
      body: { plugin_name: 'postgresql-database-plugin', connection_url: `postgresql://{{username}}:{{password}}@${u.host}${u.pathname}`,
        username: u.username, password: decodeURIComponent(u.password), allowed_roles: ['*'] },
    })).status).toBe(204);
    expect((await call(first, 'POST', '/v1/database/static-roles/st', { body: { db_name: 'pg', username: 'journaluser', rotation_period: 5 } })).status).toBe(204);
    const initial = (await call(first, 'GET', '/v1/database/static-creds/st')).body.data.password as string;
    // The timer's rotation, without sending a request (a request would not be what journals it).
    const journal = path.join(dataDir, 'secrets.journal');
    const linesAfterCreate = fs.readFileSync(journal, 'utf8').split('\n').length;
    await advance(first, clock, 5000);
    await (first as unknown as { journal: { sync(): Promise<void> } }).journal.sync();
    expect(fs.readFileSync(journal, 'utf8').split('\n').length).toBeGreaterThan(linesAfterCreate);
    // The rotation happened (the new password is read through the API only after the crash).
    expect(await canLogin('journaluser', initial)).toBe(false);
  } finally {
    await abandon(first);
  }
  const second = await ServedApi.start(new SecretsEmulator({ rootToken: ROOT_TOKEN, clock }), { port: 0, dataDir });
  try {
    const creds = (await call(second, 'GET', '/v1/database/static-creds/st')).body.data;
    expect(await canLogin('journaluser', creds.password)).toBe(true);
  } finally {
    await second.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
