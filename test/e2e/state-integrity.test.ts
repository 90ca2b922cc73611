import { Client } from 'pg';
import * as fs from 'fs';
import * as path from 'path';
import { decrypt, encrypt } from '../../lib/core/crypto/state-key';
import { fieldAad } from '../../lib/core/state/record-seal';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
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

type Doc = { stack: string; serial: number; resources: Record<string, Record<string, unknown>>; authenticated?: boolean };

/**
 * The attack of issue 32 item 2, as someone who can write state but lacks the key would do it: every
 * seal removed (the document's mark and each record's mac), and a record planted that points at a
 * secret of another team, so that the victim's next apply deletes it as "no longer declared".
 */
function stripAndPlant(victim: Doc, team: Doc): Doc {
  const doc = structuredClone(victim);
  delete doc.authenticated;
  for (const r of Object.values(doc.resources)) delete r.mac;
  const { mac: _mac, ...planted } = team.resources.payroll;
  doc.resources.planted = planted;
  doc.serial++;
  return doc;
}

/** Two stacks: the victim's (KV secrets, no sensitive outputs), and another team's secret it never managed. */
const kvApps = (prefix: string) => ({
  victim: synthApp((st) => { new KvSecret(st, 'app', { path: `${prefix}/victim/app`, data: { a: '1' } }); }, `${prefix}-victim`),
  team: synthApp((st) => { new KvSecret(st, 'payroll', { path: `${prefix}/team/payroll`, data: { iban: 'x' } }); }, `${prefix}-team`),
});

async function kvExists(env: NodeJS.ProcessEnv, p: string): Promise<boolean> {
  const r = await fetch(`${env.SECRETS_ADDR}/v1/secret/data/${p}`, { headers: { 'x-secrets-token': env.SECRETS_TOKEN! } });
  return r.status === 200;
}

/** The attacker's document, then every command refused, the other team's secret left alone; `state migrate` is the way out only for a real old state. */
async function expectStrippedStateRefused(env: NodeJS.ProcessEnv, prefix: string, victimApp: string): Promise<void> {
  for (const args of [['plan'], ['apply', '--auto-approve'], ['refresh'], ['destroy', '--auto-approve']]) {
    const r = await cliAsync([...args, '--synth-dir', victimApp], env);
    expect([args[0], r.status]).toEqual([args[0], 1]);
    expect(r.stderr).toMatch(new RegExp(`the state of stack "${prefix}-victim" .* is not sealed`));
    expect(r.stderr).toContain(`converge state migrate --stack ${prefix}-victim`);
  }
  expect(await kvExists(env, `${prefix}/team/payroll`)).toBe(true);
  expect(await kvExists(env, `${prefix}/victim/app`)).toBe(true);
}

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
  });

  test('seals stripped and a record planted by someone without the key: refused, nothing deleted; state migrate refuses a state that shows it was sealed (issue 32 item 2)', async () => {
    const apps = kvApps('strip');
    for (const app of [apps.victim, apps.team]) expect((await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env)).status).toBe(0);
    write('strip-victim', stripAndPlant(read('strip-victim'), read('strip-team')));
    await expectStrippedStateRefused(world.env, 'strip', apps.victim);
    // A planted record in a document that keeps its mark is refused as unsealed, naming it.
    const marked = stripAndPlant(read('strip-victim'), read('strip-team'));
    marked.authenticated = true;
    write('strip-victim', marked);
    const r = await cliAsync(['apply', '--synth-dir', apps.victim, '--auto-approve'], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/records at app, planted were changed outside converge/);
    expect(await kvExists(world.env, 'strip/team/payroll')).toBe(true);
    // A state with TOTP keys shows it was sealed (ciphertexts bound to their places): migrate refuses it.
    const totp = twoKeys('stripped');
    expect((await cliAsync(['apply', '--synth-dir', totp, '--auto-approve'], world.env)).status).toBe(0);
    const doc = read('stripped');
    delete doc.authenticated;
    for (const rec of Object.values(doc.resources)) delete rec.mac;
    write('stripped', doc);
    const m = await cliAsync(['state', 'migrate', '--stack', 'stripped', '--auto-approve'], world.env);
    expect(m.status).toBe(1);
    expect(m.stderr).toMatch(/was sealed by this release \(the records at ops, web show it\).*Restore the state from a backup/);
    expect(read('stripped').authenticated).toBeUndefined();
  });

  test('a state written by a release that did not seal records is refused until converge state migrate seals it, once', async () => {
    const app = twoKeys('legacy');
    expect((await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env)).status).toBe(0);
    const before = await cliAsync(['output', '--stack', 'legacy', '--show-sensitive', '--json'], world.env);
    const doc = read('legacy');
    // As the earlier release wrote it.
    delete doc.authenticated;
    for (const [address, r] of Object.entries(doc.resources)) {
      r.sensitiveOutputs = encrypt(decrypt(String(r.sensitiveOutputs), fieldAad('legacy', address, 'sensitiveOutputs')));
      delete r.mac;
    }
    write('legacy', doc);
    const plan = await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], world.env);
    expect(plan.status).toBe(1);
    expect(plan.stderr).toMatch(/is not sealed.*converge state migrate --stack legacy/);
    expect(read('legacy').authenticated).toBeUndefined();
    // It lists what it would seal, and seals nothing without confirmation.
    const ask = await cliAsync(['state', 'migrate', '--stack', 'legacy'], world.env);
    expect(ask.status).toBe(1);
    expect(ask.stdout).toMatch(/^ops\tsecrets\.TotpKey\t.*\tlegacy\/ops$/m);
    expect(ask.stdout).toMatch(/^web\tsecrets\.TotpKey\t/m);
    expect(ask.stderr).toMatch(/needs confirmation: .* --auto-approve/);
    expect(read('legacy').authenticated).toBeUndefined();
    const m = await cliAsync(['state', 'migrate', '--stack', 'legacy', '--auto-approve'], world.env);
    expect(m.stderr).toBe('');
    expect(m.status).toBe(0);
    expect(m.stdout).toMatch(/Sealed the state of stack legacy \(2 objects\)/);
    const after = read('legacy');
    expect(after.authenticated).toBe(true);
    for (const r of Object.values(after.resources)) {
      expect(r.mac).toEqual(expect.any(String));
      expect(String(r.sensitiveOutputs)).toMatch(/^v2\./);
    }
    const out = await cliAsync(['output', '--stack', 'legacy', '--show-sensitive', '--json'], world.env);
    expect(JSON.parse(out.stdout)).toEqual(JSON.parse(before.stdout));
    expect((await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], world.env)).status).toBe(0);
    // Once only.
    const again = await cliAsync(['state', 'migrate', '--stack', 'legacy', '--auto-approve'], world.env);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/is sealed already: there is nothing to migrate/);
  });
});

describe('state records are authenticated (PostgreSQL backend)', () => {
  let pg: TestPostgres;
  let world: TestWorld;
  beforeAll(async () => {
    pg = await startPostgres();
    world = await startWorld({}, { CONVERGE_STATE: pg.url });
  });
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

  test('seals stripped and a record planted in the row: refused, nothing deleted; a real old state is sealed by state migrate (issue 32 item 2)', async () => {
    const apps = kvApps('pgstrip');
    for (const app of [apps.victim, apps.team]) expect((await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env)).status).toBe(0);
    const c = new Client({ connectionString: pg.url });
    await c.connect();
    try {
      const row = async (stack: string): Promise<Doc> => (await c.query('SELECT document FROM converge_state WHERE stack = $1', [stack])).rows[0].document;
      const planted = stripAndPlant(await row('pgstrip-victim'), await row('pgstrip-team'));
      await c.query('UPDATE converge_state SET document = $2, serial = $3 WHERE stack = $1', ['pgstrip-victim', planted, planted.serial]);
      await expectStrippedStateRefused(world.env, 'pgstrip', apps.victim);
      // The same document, had an earlier release written it (no planted record): migrate seals it.
      const { planted: _p, ...resources } = planted.resources;
      const legacy = { ...planted, serial: planted.serial + 1, resources };
      await c.query('UPDATE converge_state SET document = $2, serial = $3 WHERE stack = $1', ['pgstrip-victim', legacy, legacy.serial]);
      const m = await cliAsync(['state', 'migrate', '--stack', 'pgstrip-victim', '--auto-approve'], world.env);
      expect(m.status).toBe(0);
      expect(m.stdout).toMatch(/^app\tsecrets\.KvSecret\t/m);
      expect((await row('pgstrip-victim')).authenticated).toBe(true);
      expect((await cliAsync(['plan', '--synth-dir', apps.victim, '--detailed-exitcode'], world.env)).status).toBe(0);
    } finally {
      await c.end();
    }
  });
});
