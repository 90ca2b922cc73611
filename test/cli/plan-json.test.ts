import * as fs from 'fs';
import * as path from 'path';
import { RemovalPolicy, SecretValue } from '../../lib';
import { Organization } from '../../lib/platform/organization/organization';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, ROOT, startWorld, synthApp, TestWorld } from '../support/harness';
import { validate } from '../support/json-schema';

// `converge plan --json` against its published schema (docs/plan-json.schema.json), and the
// Markdown summary of `--summary FILE`, on real plans: creates, an update, a delete, drift, secrets.
const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'plan-json.schema.json'), 'utf8'));

describe('plan --json and --summary', () => {
  let world: TestWorld;
  const password = 'pw-planjson-0b7e';
  beforeAll(async () => { world = await startWorld({}, { PJ_PASSWORD: password }); });
  afterAll(async () => { await world.stop(); });

  const build = (email: string, extra: boolean) => synthApp((stack) => {
    new Organization(stack, 'org', { name: 'planjson', email, removalPolicy: RemovalPolicy.DESTROY });
    new KvSecret(stack, 'db', { path: 'planjson/db', data: { user: 'app', password: SecretValue.fromEnv('PJ_PASSWORD') } });
    if (extra) new KvSecret(stack, 'extra', { path: 'planjson/extra', data: { a: '1' } });
  });

  test('the validator rejects what the schema forbids', () => {
    expect(validate({ format_version: 1, stacks: [] }, schema)).toEqual([]);
    expect(validate({ format_version: 2, stacks: [] }, schema)).toEqual(['$.format_version: 2 is not 1']);
    expect(validate({ format_version: 1, stacks: [{ stack: 's' }] }, schema)).toContain('$.stacks[0]: lineage is required');
    expect(validate({ format_version: 1, stacks: [], extra: 1 }, schema)).toEqual(['$: extra is not allowed']);
  });

  test('real plans follow the schema; the summary is Markdown with no secret', async () => {
    const summary = path.join(world.dir, 'summary.md');
    const v1 = build('ops@planjson.io', true);
    let r = await cliAsync(['plan', '--synth-dir', v1, '--json', '--summary', summary, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(2);
    let doc = JSON.parse(r.stdout);
    expect(validate(doc, schema)).toEqual([]);
    expect(doc.stacks[0].summary).toMatchObject({ create: 3, update: 0, delete: 0 });
    const sensitive = doc.stacks[0].changes.find((c: any) => c.address === 'db').fields.find((f: any) => f.path === 'data.password');
    expect(sensitive).toEqual({ path: 'data.password', added: true, sensitive: true, replace: false });
    let md = fs.readFileSync(summary, 'utf8');
    expect(md).toMatch(/^## converge plan\n\n### Stack `e2e`\n\n\*\*3\*\* to add, \*\*0\*\* to change, \*\*0\*\* to replace, \*\*0\*\* to destroy\.$/m);
    expect(md).toContain('| ➕ | `db` | secrets.KvSecret | create | ');
    expect(md).toContain('`data.password` (sensitive)');

    r = await cliAsync(['apply', '--synth-dir', v1, '--auto-approve'], world.env);
    expect(r.status).toBe(0);

    // Drift on the secret, an update of the organization and a removed secret.
    await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/planjson/db`, {
      method: 'POST', headers: { 'x-secrets-token': world.env.SECRETS_TOKEN!, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { user: 'app', password: 'by-hand-77aa' } }),
    });
    const v2 = build('platform@planjson.io', false);
    r = await cliAsync(['plan', '--synth-dir', v2, '--json', '--summary', summary, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(2);
    doc = JSON.parse(r.stdout);
    expect(validate(doc, schema)).toEqual([]);
    const byAddress = Object.fromEntries(doc.stacks[0].changes.map((c: any) => [c.address, c]));
    expect(byAddress.org).toMatchObject({ action: 'update', id: 'planjson', fields: [{ path: 'email', before: 'ops@planjson.io', after: 'platform@planjson.io', sensitive: false, replace: false }] });
    expect(byAddress.extra.action).toBe('delete');
    expect(byAddress.db.drift).toContainEqual(expect.objectContaining({ path: 'data.password', sensitive: true }));
    md = fs.readFileSync(summary, 'utf8');
    expect(md).toContain('| ✏️ | `org` | platform.Organization | update | `email` |');
    expect(md).toMatch(/\| 🗑️ \| `extra` \| secrets\.KvSecret \| delete/);
    expect(md).toMatch(/<details><summary>Drift found \(changed outside converge\)<\/summary>\n\n- `db`: `data\.password`/);
    for (const text of [r.stdout, md]) {
      expect(text).not.toContain(password);
      expect(text).not.toContain('by-hand-77aa');
    }
  });

  test('a failing plan --json still prints one JSON document: a diagnostic the schema describes', async () => {
    expect(validate({ format_version: 1, error: { message: 'x' } }, schema)).toEqual([]);
    expect(validate({ format_version: 1, error: {} }, schema)).toEqual(['$.error: message is required']);
    const missing = await cliAsync(['plan', '--synth-dir', path.join(world.dir, 'no-such-dir'), '--json'], world.env);
    const weakKey = await cliAsync(['plan', '--synth-dir', build('a@planjson.io', false), '--json'], { ...world.env, CONVERGE_STATE_KEY: 'a' });
    for (const r of [missing, weakKey]) {
      expect(r.status).toBe(1);
      const doc = JSON.parse(r.stdout);
      expect(validate(doc, schema)).toEqual([]);
      expect(r.stderr).toContain(`Error: ${doc.error.message}`);
    }
    expect(JSON.parse(weakKey.stdout).error.message).toMatch(/^CONVERGE_STATE_KEY must be at least 32 random bytes/);
  });
});
