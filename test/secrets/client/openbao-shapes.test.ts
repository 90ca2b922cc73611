import * as http from 'http';
import { AddressInfo } from 'net';
import { ApiError } from '../../../lib/core/http/api-error';
import { SecretsClient, unwrapMessage } from '../../../lib/secrets/client/secrets-client';
import { DatabaseClient } from '../../../lib/secrets/database/database-client';
import { SecretsTokenHeader } from '../../../lib/secrets/token-header';

// Shapes a real OpenBao answers that the spec words otherwise, served by a stand-in server that
// answers as OpenBao 2.6 did (bodies copied from it).
describe('the secrets client lives with the real service\'s shapes', () => {
  let server: http.Server;
  let address: string;
  const seen: http.IncomingHttpHeaders[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.headers);
      const send = (status: number, body: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };
      const envelope = (data: unknown) => ({ request_id: 'r', lease_id: '', renewable: false, lease_duration: 0, data, wrap_info: null, warnings: null, auth: null });
      if (req.url === '/v1/database/static-creds/app') {
        return send(200, envelope({ last_vault_rotation: '2026-11-24T15:18:20.113133517Z', password: 'p', rotation_period: 3600, ttl: 3500, username: 'u' }));
      }
      if (req.url === '/v1/database/static-roles/app') {
        return send(200, envelope({ credential_type: 'password', db_name: 'pg', last_vault_rotation: '2026-11-24T15:18:20Z', rotation_period: 3600, rotation_statements: [], username: 'u' }));
      }
      if (req.url === '/v1/database/roles/bad') return send(400, { errors: ['1 error occurred:\n\t* permission denied\n\n'] });
      return send(404, { errors: [] });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => { server.closeAllConnections(); await new Promise((r) => server.close(r)); });

  const client = (tokenHeader?: SecretsTokenHeader) => SecretsClient.connect({ address, token: 'root', tokenHeader, options: { retries: 0 } });

  test('last_vault_rotation reads as last_service_rotation (static credentials and static roles)', async () => {
    const db = new DatabaseClient(client());
    expect((await db.staticCredentials('database', 'app')).last_service_rotation).toBe('2026-11-24T15:18:20.113133517Z');
    expect((await db.readStaticRole('database', 'app'))!.last_service_rotation).toBe('2026-11-24T15:18:20Z');
  });

  test('a wrapped multi-error body is shown as its clean message, keeping the status', async () => {
    const err = await client().request({ method: 'GET', path: 'database/roles/bad' }).then(() => undefined, (e) => e as ApiError) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(400);
    expect(err.apiMessages).toEqual(['permission denied']);
    expect(err.message).toContain('failed with 400: permission denied');
    expect(err.message).not.toContain('error occurred');
    expect(unwrapMessage('2 errors occurred:\n\t* a\n\t* b\n\n')).toEqual(['a', 'b']);
    expect(unwrapMessage('plain')).toEqual(['plain']);
  });

  test('the SDK client sends the chosen token header', async () => {
    seen.length = 0;
    await client(SecretsTokenHeader.VAULT_TOKEN).request({ method: 'GET', path: 'database/static-creds/app' });
    await client(SecretsTokenHeader.AUTHORIZATION_BEARER).request({ method: 'GET', path: 'database/static-creds/app' });
    await client().request({ method: 'GET', path: 'database/static-creds/app' });
    expect(seen.map((h) => [h['x-vault-token'], h.authorization, h['x-secrets-token']])).toEqual([
      ['root', undefined, undefined], [undefined, 'Bearer root', undefined], [undefined, undefined, 'root'],
    ]);
  });
});
