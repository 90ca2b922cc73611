import { Client } from 'pg';
import * as fs from 'fs';
import * as path from 'path';
import { decrypt, encrypt } from '../../lib/core/crypto/state-key';
import { fieldAad } from '../../lib/core/state/record-seal';
import { TotpKey } from '../../lib/secrets/totp/totp-key';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';
import { startPostgres, TestPostgres } from '../support/postgres';

// Whoever can write state without the key (a shared table, a CI artifact) must not be able to move a
// ciphertext to another record or edit what the engine trusts in one: such a record is refused, named.
const twoKeys = (stack: string) => synthApp((st) => {
  for (const who of ['ops', 'web']) {
    new TotpKey(st, who, { name: `${stack}-${who}`, generate: true, exported: true, issuer: 'acme', accountName: `${who}@acme.io` });
  }
}, stack);

type Doc = { stack: string; resources: Record<string, Record<string, unknown>>; authenticated?: boolean };

describe('state records are authenticated (local backend)', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });
  const stateFile = (stack: string) => path.join(world.env.CONVERGE_DIR!, 'stacks', stack, 'state.json');
  const read = (stack: string): Doc => JSON.parse(fs.readFileSync(stateFile(stack), 'utf8'));
  const write = (stack: string, doc: Doc) => fs.writeFileSync(stateFile(stack), JSON.stringify(doc), { mode: 0o600 });

  test('swapped sensitive outputs, an edited id or provider, a planted record: refused naming the record', async () => {
    const app = twoKeys('swap');
    expect((await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env)).status).toBe(0);
    const good = read('swap');
    expect(good.authenticated).toBe(true);
    for (const r of Object.values(good.resources)) {
      expect(r.mac).toEqual(expect.any(String));
      expect(String(r.sensitiveOutputs)).toMatch(/^v2\./);
    }
    const edits: [string, (d: Doc) => void, RegExp][] = [
      ['swapped ciphertexts', (d) => {
        const t = d.resources.ops.sensitiveOutputs;
        d.resources.ops.sensitiveOutputs = d.resources.web.sensitiveOutputs;
        d.resources.web.sensitiveOutputs = t;
      }, /records at ops, web were changed outside converge/],
      ['an edited id', (d) => { d.resources.web.id = 'other'; }, /record at web was changed outside converge/],
      ['an edited provider', (d) => { d.resources.ops.provider = { api: 'secrets', address: 'http://127.0.0.1:9', addressEnv: 'SECRETS_ADDR', tokenEnv: 'CONVERGE_STATE_KEY' }; },
        /record at ops was changed outside converge/],
      ['a planted record', (d) => { d.resources.planted = { ...d.resources.web, mac: undefined }; }, /record at planted was changed outside converge/],
    ];
    for (const [what, edit, refused] of edits) {
      const doc = structuredClone(good);
      edit(doc);
      write('swap', doc);
      for (const args of what === 'swapped ciphertexts' ? [['plan'], ['apply', '--auto-approve'], ['destroy', '--auto-approve']] : [['plan']]) {
        const r = await cliAsync([...args, '--synth-dir', app], world.env);
        expect([what, args[0], r.status]).toEqual([what, args[0], 1]);
        expect(r.stderr).toMatch(refused);
      }
    }
    // The way out for a record refused: forget it.
    const doc = structuredClone(good);
    doc.resources.web.id = 'other';
    write('swap', doc);
    expect((await cliAsync(['state', 'rm', 'web', '--stack', 'swap'], world.env)).status).toBe(0);
    const after = await cliAsync(['plan', '--synth-dir', app], world.env);
    expect(after.stderr).not.toMatch(/changed outside converge/);
    // The key itself is still on the API: the plan reports it for import (the object was forgotten, not deleted).
    expect(after.stdout + after.stderr).toMatch(/converge import web/);
  }, 120_000);

  test('a state written by the previous release (no MACs, ciphertexts without associated data) works and is sealed at its next write', async () => {
    const app = twoKeys('legacy');
    expect((await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env)).status).toBe(0);
    const before = await cliAsync(['output', '--stack', 'legacy', '--show-sensitive', '--json'], world.env);
    const doc = read('legacy');
    // As the previous release wrote it.
    delete doc.authenticated;
    for (const [address, r] of Object.entries(doc.resources)) {
      r.sensitiveOutputs = encrypt(decrypt(String(r.sensitiveOutputs), fieldAad('legacy', address, 'sensitiveOutputs')));
      delete r.mac;
    }
    write('legacy', doc);
    expect(String(read('legacy').resources.ops.sensitiveOutputs)).toMatch(/^v1\./);
    const plan = await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], world.env);
    expect(plan.stderr).toBe('');
    expect(plan.status).toBe(0);
    expect((await cliAsync(['refresh', '--synth-dir', app], world.env)).status).toBe(0);
    const after = read('legacy');
    expect(after.authenticated).toBe(true);
    for (const r of Object.values(after.resources)) {
      expect(r.mac).toEqual(expect.any(String));
      expect(String(r.sensitiveOutputs)).toMatch(/^v2\./);
    }
    const out = await cliAsync(['output', '--stack', 'legacy', '--show-sensitive', '--json'], world.env);
    expect(JSON.parse(out.stdout)).toEqual(JSON.parse(before.stdout));
    expect((await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], world.env)).status).toBe(0);
  }, 120_000);
});

describe('state records are authenticated (PostgreSQL backend)', () => {
  let pg: TestPostgres;
  let world: TestWorld;
  beforeAll(async () => {
    pg = await startPostgres();
    world = await startWorld({}, { CONVERGE_STATE: pg.url });
  }, 120_000);
  afterAll(async () => { await world?.stop(); await pg?.stop(); });

  test('swapped sensitive outputs in the row are refused naming the records', async () => {
    const app = twoKeys('pgswap');
    expect((await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env)).status).toBe(0);
    const c = new Client({ connectionString: pg.url });
    await c.connect();
    try {
      await c.query(`UPDATE converge_state SET document = jsonb_set(jsonb_set(document,
        '{resources,ops,sensitiveOutputs}', document->'resources'->'web'->'sensitiveOutputs'),
        '{resources,web,sensitiveOutputs}', document->'resources'->'ops'->'sensitiveOutputs') WHERE stack = 'pgswap'`);
    } finally {
      await c.end();
    }
    const r = await cliAsync(['plan', '--synth-dir', app], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/records at ops, web were changed outside converge/);
  });
});
