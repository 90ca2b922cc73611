import * as crypto from 'crypto';
import * as fs from 'fs';
import * as http from 'http';
import { AddressInfo } from 'net';
import * as path from 'path';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// State is data, never instructions: a record planted in state (a shared table, a CI artifact) that
// names its own address and token variable must not make converge send that variable anywhere.
describe('a state record whose provider the app does not declare', () => {
  let world: TestWorld;
  let listener: http.Server;
  let received: string[];
  let port: number;
  beforeAll(async () => {
    world = await startWorld();
    received = [];
    listener = http.createServer((req, res) => {
      received.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"keys":[]}}');
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    port = (listener.address() as AddressInfo).port;
  });
  afterAll(async () => { await world.stop(); await new Promise((r) => listener.close(r)); });

  /** A state as the previous release wrote it (no key check, no record MACs), holding one planted record. */
  const plant = (stack: string, status: 'creating' | 'created') => {
    const dir = path.join(world.env.CONVERGE_DIR!, 'stacks', stack);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'state.json'), JSON.stringify({
      version: 1, stack, serial: 3, lineage: crypto.randomUUID(), resources: {
        planted: {
          kind: 'secrets.PushMfaMethod', status, ...(status === 'created' ? { id: 'b4a3f0c2-0000-4000-8000-000000000001' } : { since: new Date(0).toISOString() }),
          spec: { methodName: 'x' }, hmacs: {}, outputs: {}, dependsOn: [], removalPolicy: 'destroy', path: `${stack}/planted`,
          provider: { api: 'secrets', address: `http://127.0.0.1:${port}`, addressEnv: 'SECRETS_ADDR', tokenEnv: 'CONVERGE_STATE_KEY' },
        },
      },
    }), { mode: 0o600 });
  };

  for (const status of ['creating', 'created'] as const) {
    test(`status ${status}: plan, apply and destroy send nothing to its address and name the record`, async () => {
      const stack = `planted-${status}`;
      const app = synthApp((st) => { new KvSecret(st, 'kv', { path: `${stack}/a`, data: { a: '1' } }); }, stack);
      plant(stack, status);
      const commands = [['plan'], ['apply', '--auto-approve'], ['destroy', '--auto-approve'], ...(status === 'created' ? [['refresh']] : [])];
      for (const args of commands) {
        const r = await cliAsync([...args, '--synth-dir', app], world.env);
        expect([args[0], r.status]).toEqual([args[0], 1]);
        expect(r.stderr).toMatch(/planted/);
        // Never sealed: refused as a whole before anything reads it (issue 32 item 2).
        expect(r.stderr).toMatch(/is not sealed/);
        expect(r.stdout + r.stderr).not.toContain(world.env.CONVERGE_STATE_KEY!);
      }
      expect(received).toEqual([]);
    });
  }
});
