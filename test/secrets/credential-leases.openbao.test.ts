import { Client } from 'pg';
import { HandlerContext } from '../../lib/core/engine/handler';
import { HttpClient } from '../../lib/core/http/http-client';
import { ServedApi } from '../../lib/core/emulator-kit/server';
import { leaseAlive, revokeLease } from '../../lib/secrets/shared/lease';
import { startOpenBaoForLeases, TestOpenBao } from '../support/openbao-lease';
import { startPostgres, TestPostgres } from '../support/postgres';
import { describeWithTool } from '../support/real-tools';
import { ROOT_TOKEN, startSecrets } from './emulator-helpers';


// The lease endpoints (`sys/leases/lookup`, `renew`, `revoke`) on the real OpenBao and on the emulator,
// the same requests to both, each issuing real users in a real PostgreSQL: the emulator answers in the
// real service's shapes, and converge's lease calls (the plan's lookup, destroy's revocation) drop the
// database user on both.
describeWithTool('BAO', 'credential leases on OpenBao and the emulator', () => {
  let pg: TestPostgres;
  let bao: TestOpenBao;
  let emu: ServedApi;
  const targets: Record<string, { address: string; headers: Record<string, string> }> = {};

  const sql = async (text: string) => {
    const c = new Client({ connectionString: pg.url });
    await c.connect();
    try { return (await c.query(text)).rows; } finally { await c.end(); }
  };
  const users = async (): Promise<string[]> => (await sql('SELECT rolname FROM pg_roles WHERE rolname LIKE \'v-%\'')).map((r) => r.rolname);
  const send = async (target: string, method: string, path: string, body?: unknown) => {
    const t = targets[target];
    const r = await fetch(`${t.address}/v1/${path}`, {
      method, headers: { ...t.headers, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
  const ctx = (target: string): HandlerContext => ({
    address: 'leases/creds',
    http: new HttpClient({ api: 'secrets', baseUrl: targets[target].address, authHeaders: targets[target].headers, retries: 0 }),
  });
  const shape = (v: unknown): unknown => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, typeof (v as Record<string, unknown>)[k]])) : typeof v);

  beforeAll(async () => {
    pg = await startPostgres();
    [bao, emu] = await Promise.all([startOpenBaoForLeases(), startSecrets({ database: 'database' })]);
    targets.openbao = { address: bao.address, headers: { 'x-vault-token': bao.token } };
    targets.emulator = { address: emu.address, headers: { 'x-secrets-token': ROOT_TOKEN } };
    const u = new URL(pg.url);
    for (const t of Object.keys(targets)) {
      const conn = await send(t, 'POST', 'database/config/pg', {
        plugin_name: 'postgresql-database-plugin', allowed_roles: ['app'], username: 'postgres', password: decodeURIComponent(u.password),
        connection_url: `postgresql://{{username}}:{{password}}@${u.host}/postgres?sslmode=disable`,
      });
      expect([t, conn.status]).toEqual([t, 204]);
      const role = await send(t, 'POST', 'database/roles/app', {
        db_name: 'pg', default_ttl: 3600, creation_statements: ['CREATE ROLE "{{name}}" WITH LOGIN PASSWORD \'{{password}}\' VALID UNTIL \'{{expiration}}\''],
      });
      expect([t, role.status]).toEqual([t, 204]);
    }
  });
  afterAll(async () => {
    await Promise.all([bao?.stop(), emu?.stop()]);
    await pg?.stop();
  });

  const issue = async (t: string) => {
    const r = await send(t, 'GET', 'database/creds/app');
    expect([t, r.status]).toEqual([t, 200]);
    return { leaseId: r.body.lease_id as string, username: r.body.data.username as string };
  };

  test('lookup, renew and revoke answer the same shapes and statuses', async () => {
    const seen: Record<string, unknown[]> = {};
    for (const t of Object.keys(targets)) {
      const { leaseId, username } = await issue(t);
      const lookup = await send(t, 'PUT', 'sys/leases/lookup', { lease_id: leaseId });
      const renew = await send(t, 'PUT', 'sys/leases/renew', { lease_id: leaseId, increment: 600 });
      expect([t, await users()]).toEqual([t, expect.arrayContaining([username])]);
      const revoke = await send(t, 'PUT', 'sys/leases/revoke', { lease_id: leaseId });
      expect([t, await users()]).toEqual([t, expect.not.arrayContaining([username])]);
      seen[t] = [
        lookup.status, shape(lookup.body), shape(lookup.body.data), lookup.body.data.id === leaseId, lookup.body.data.path, lookup.body.data.ttl > 3590,
        renew.status, shape(renew.body), renew.body.lease_id === leaseId, renew.body.lease_duration,
        revoke.status,
        await send(t, 'PUT', 'sys/leases/lookup', { lease_id: leaseId }),
        await send(t, 'PUT', 'sys/leases/renew', { lease_id: leaseId }),
        (await send(t, 'PUT', 'sys/leases/revoke', { lease_id: leaseId })).status,
        await send(t, 'PUT', 'sys/leases/revoke', {}),
        await send(t, 'PUT', 'sys/leases/lookup', {}),
        (await send(t, 'GET', 'sys/leases/lookup')).status,
      ];
    }
    // The envelope's extra fields (request_id, …) are compared by shape; their values differ.
    const drop = (s: unknown) => (s && typeof s === 'object' ? Object.fromEntries(Object.entries(s).filter(([k]) => !['mount_type'].includes(k))) : s);
    expect(seen.emulator.map(drop)).toEqual(seen.openbao.map(drop));
  });

  test('converge\'s lease calls: a live lease is alive; revoked, it is gone and its database user dropped', async () => {
    for (const t of Object.keys(targets)) {
      const { leaseId, username } = await issue(t);
      expect([t, await leaseAlive(ctx(t), { leaseId })]).toEqual([t, true]);
      expect([t, await revokeLease(ctx(t), { leaseId })]).toEqual([t, true]);
      expect([t, await users()]).toEqual([t, expect.not.arrayContaining([username])]);
      expect([t, await leaseAlive(ctx(t), { leaseId })]).toEqual([t, false]);
      // Credentials without a lease (a stored token) have nothing to look up or revoke.
      expect([t, await leaseAlive(ctx(t), { leaseId: '' }), await revokeLease(ctx(t), { leaseId: '' })]).toEqual([t, true, false]);
    }
    expect(await users()).toEqual([]);
  });
});
