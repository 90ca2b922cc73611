import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ServedApi } from '../../../lib/core/emulator-kit/server';
import { SecretsEmulator } from '../../../lib/secrets/emulator/secrets-emulator';
import { call, ROOT_TOKEN, startSecrets } from '../emulator-helpers';

describe('mounts and admin', () => {
  test('a KV engine is mounted at secret by default; admin lists mounts', async () => {
    const s = await startSecrets();
    try {
      const a = await call(s, 'GET', '/__admin/mounts');
      expect(a).toMatchObject({ status: 200, body: { mounts: { secret: { type: 'kv' } } } });
      expect((await call(s, 'GET', '/__admin/mounts', { token: null })).status).toBe(403);
    } finally { await s.stop(); }
  });

  test('custom mounts, routed by the longest prefix, with separate state', async () => {
    const s = await startSecrets({ kv: 'kv', 'team/kv': 'kv' });
    try {
      await call(s, 'POST', '/v1/kv/data/x', { body: { data: { where: 'kv' } } });
      await call(s, 'POST', '/v1/team/kv/data/x', { body: { data: { where: 'team' } } });
      expect((await call(s, 'GET', '/v1/kv/data/x')).body.data.data).toEqual({ where: 'kv' });
      expect((await call(s, 'GET', '/v1/team/kv/data/x')).body.data.data).toEqual({ where: 'team' });
      expect((await call(s, 'GET', '/v1/secret/data/x')).status).toBe(404);
    } finally { await s.stop(); }
  });

  test('admin mounts and unmounts engines', async () => {
    const s = await startSecrets();
    try {
      expect((await call(s, 'POST', '/__admin/mounts/other', { body: { type: 'kv' } })).status).toBe(204);
      expect((await call(s, 'POST', '/__admin/mounts/other', { body: { type: 'kv' } })).status).toBe(400);
      expect((await call(s, 'POST', '/__admin/mounts/x', { body: { type: 'nope' } })).status).toBe(400);
      expect((await call(s, 'POST', '/v1/other/data/a', { body: { data: { a: 1 } } })).status).toBe(200);
      expect((await call(s, 'DELETE', '/__admin/mounts/other')).status).toBe(204);
      expect((await call(s, 'GET', '/v1/other/data/a')).status).toBe(404);
      expect(Object.keys((await call(s, 'GET', '/__admin/mounts')).body.mounts)).not.toContain('other');
    } finally { await s.stop(); }
  });
});

describe('persistence', () => {
  test('snapshot and restore keep config, keys, versions and deletion state', async () => {
    const a = await startSecrets();
    await call(a, 'POST', '/v1/secret/config', { body: { max_versions: 4 } });
    await call(a, 'POST', '/v1/secret/data/p', { body: { data: { v: 1 } } });
    await call(a, 'POST', '/v1/secret/data/p', { body: { data: { v: 2 } } });
    await call(a, 'DELETE', '/v1/secret/data/p');
    const snap = JSON.parse(JSON.stringify(a.api.snapshot()));
    await a.stop();
    const emu = new SecretsEmulator({ rootToken: ROOT_TOKEN });
    emu.restore(snap);
    const b = await ServedApi.start(emu, { port: 0 });
    try {
      expect((await call(b, 'GET', '/v1/secret/config')).body.data.max_versions).toBe(4);
      expect((await call(b, 'GET', '/v1/secret/data/p?version=1')).body.data.data).toEqual({ v: 1 });
      expect((await call(b, 'GET', '/v1/secret/data/p')).status).toBe(404);
      expect((await call(b, 'POST', '/v1/secret/data/p', { body: { options: { cas: 2 }, data: { v: 3 } } })).body.data.version).toBe(3);
    } finally { await b.stop(); }
  });

  test('state survives a restart through the data directory, without the token', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secrets-emu-'));
    const a = await ServedApi.start(new SecretsEmulator({ rootToken: ROOT_TOKEN }), { port: 0, dataDir: dir });
    await call(a, 'POST', '/v1/secret/data/keep', { body: { data: { k: 'planted-secret-value' } } });
    await a.stop();
    const file = fs.readFileSync(path.join(dir, 'secrets.json'), 'utf8');
    expect(file).not.toContain(ROOT_TOKEN);
    expect(file).not.toContain('planted-secret-value');
    expect(() => new SecretsEmulator({ rootToken: 'another' }).restore(JSON.parse(file))).toThrow(/another root token/);
    const b = await ServedApi.start(new SecretsEmulator({ rootToken: ROOT_TOKEN }), { port: 0, dataDir: dir });
    try {
      expect((await call(b, 'GET', '/v1/secret/data/keep')).body.data.data).toEqual({ k: 'planted-secret-value' });
    } finally { await b.stop(); fs.rmSync(dir, { recursive: true, force: true }); }
  });
});
