import { KvSecret } from '../../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, synthApp, TestWorld } from '../../support/harness';

// A KV mount may require check-and-set on metadata writes (the real service's `metadata_cas_required`,
// which the spec does not name): the emulator enforces it as OpenBao does, and converge's creates and
// updates send `metadata_cas` there.
describe('KV metadata check-and-set', () => {
  let world: TestWorld;
  const api = (method: string, path: string, body?: unknown) => fetch(`${world.env.SECRETS_ADDR}${path}`, {
    method, headers: { 'x-secrets-token': world.env.SECRETS_TOKEN!, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const meta = async (path: string) => ((await (await api('GET', `/v1/kvc/metadata/${path}`)).json()) as { data: Record<string, unknown> }).data;

  beforeAll(async () => {
    world = await startWorld();
    expect((await api('POST', '/__admin/mounts/kvc', { type: 'kv' })).status).toBe(204);
    expect((await api('POST', '/v1/kvc/config', { metadata_cas_required: true })).status).toBe(204);
  });
  afterAll(async () => { await world.stop(); });

  test('the emulator answers and enforces it as OpenBao 2.6 does', async () => {
    const config = (await (await api('GET', '/v1/kvc/config')).json()) as { data: Record<string, unknown> };
    expect(config.data).toEqual({ cas_required: false, delete_version_after: '0s', max_versions: 0, metadata_cas_required: true });
    expect((await api('POST', '/v1/kvc/data/raw', { data: { a: '1' } })).status).toBe(200);
    // A data write creating the key leaves the metadata version at 0.
    expect(await meta('raw')).toMatchObject({ current_metadata_version: 0, metadata_cas_required: false, current_version: 1 });
    const noCas = await api('POST', '/v1/kvc/metadata/raw', { max_versions: 3 });
    expect([noCas.status, await noCas.json()]).toEqual([400, { errors: ['metadata check-and-set parameter required for this call'] }]);
    const wrong = await api('POST', '/v1/kvc/metadata/raw', { max_versions: 3, metadata_cas: 5 });
    expect([wrong.status, await wrong.json()]).toEqual([400, { errors: ['metadata check-and-set parameter does not match the current version'] }]);
    expect((await api('POST', '/v1/kvc/metadata/raw', { max_versions: 3, metadata_cas: 0 })).status).toBe(204);
    expect(await meta('raw')).toMatchObject({ current_metadata_version: 1, max_versions: 3 });
    const fresh = await api('POST', '/v1/kvc/metadata/fresh', { max_versions: 3, metadata_cas: 2 });
    expect([fresh.status, await fresh.json()]).toEqual([400, { errors: ['metadata_cas must be 0 when creating new metadata'] }]);
    // On a mount without it, a key may ask for it itself.
    expect((await api('POST', '/v1/secret/metadata/own', { max_versions: 3, metadata_cas_required: true })).status).toBe(204);
    const own = await api('POST', '/v1/secret/metadata/own', { max_versions: 4 });
    expect(own.status).toBe(400);
    expect((await api('POST', '/v1/secret/metadata/own', { max_versions: 4, metadata_cas: 1 })).status).toBe(204);
  });

  test('converge creates and updates keys with non-default metadata on such a mount; a no-op plan after each', async () => {
    const app = (maxVersions: number) => synthApp((stack) => {
      new KvSecret(stack, 'kv', { mount: 'kvc', path: 'app/db', data: { user: 'app' }, maxVersions, customMetadata: { team: 'ops' } });
    }, 'mcas');
    for (const n of [5, 7]) {
      const dir = app(n);
      const a = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
      expect(a.stdout).toContain(', 0 failed,');
      expect(a.status).toBe(0);
      expect((await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env)).status).toBe(0);
      expect(await meta('app/db')).toMatchObject({ max_versions: n, custom_metadata: { team: 'ops' } });
    }
    expect((await meta('app/db')).current_metadata_version).toBe(2);
    const d = await cliAsync(['destroy', '--synth-dir', app(7), '--auto-approve'], world.env);
    expect(d.status).toBe(0);
    expect((await api('GET', '/v1/kvc/metadata/app/db')).status).toBe(404);
  });
});
