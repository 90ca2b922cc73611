import * as http from 'http';
import { AddressInfo } from 'net';
import { SecretsClient } from '../../../lib/secrets/client/secrets-client';

// Issue 33 item 3: a 403 blames the token only when the service says it is invalid. Servers stubbed to
// each answer the real ones give: OpenBao's capabilities-self, Vault's "invalid token", both probes refused.
describe('the hint of a 403 from the secrets service', () => {
  const serve = async (answer: (path: string) => [number, unknown]) => {
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const [status, body] = answer(req.url!.split('?')[0]);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const client = SecretsClient.connect({ address: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: 't', options: { retries: 0 } });
    const refused = await client.request({ method: 'POST', path: 'kvc/metadata/app/db', body: {} }).then(() => undefined, (e: Error) => e.message);
    await client.close();
    await new Promise((r) => server.close(r));
    return { refused: refused!, seen };
  };
  const denied: [number, unknown] = [403, { errors: ['1 error occurred:\n\t* permission denied\n\n'] }];

  test('capabilities-self answers: what the token holds there, and no word of the token', async () => {
    const { refused, seen } = await serve((p) => (p === '/v1/sys/capabilities-self'
      ? [200, { data: { 'kvc/metadata/app/db': ['delete', 'read'] } }] : denied));
    expect(refused).toContain('the token needs "create" or "update" on "kvc/metadata/app/db"; it holds ["delete","read"] there');
    expect(refused).not.toMatch(/invalid|expired|header/);
    expect(seen).toEqual(['POST /v1/kvc/metadata/app/db', 'POST /v1/sys/capabilities-self']);
  });

  test('lookup-self refused alone proves nothing: capabilities-self refused, lookup-self answering, the capability only', async () => {
    const { refused } = await serve((p) => (p === '/v1/auth/token/lookup-self' ? [200, { data: { policies: ['p'] } }] : denied));
    expect(refused).toContain('the token needs "create" or "update" on "kvc/metadata/app/db"');
    expect(refused).not.toMatch(/invalid|expired|header|it holds/);
  });

  test('the service says "invalid token": the token is blamed, naming the header', async () => {
    const { refused } = await serve(() => [403, { errors: ['permission denied', 'invalid token'] }]);
    expect(refused).toContain('the service says the token is invalid');
    expect(refused).toContain('converge sent X-Secrets-Token');
  });

  test('every probe refused without a word: converge says it cannot tell', async () => {
    const { refused } = await serve(() => [403, { errors: ['permission denied'] }]);
    expect(refused).toContain('converge cannot tell a missing capability from a token the service does not accept');
    expect(refused).not.toContain('the service says the token is invalid');
  });
});
