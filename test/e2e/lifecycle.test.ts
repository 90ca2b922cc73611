import * as fs from 'fs';
import * as path from 'path';
import { RemovalPolicy, SecretValue } from '../../lib';
import { Organization } from '../../lib/platform/organization/organization';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// End to end through the real CLI (dist/) against the emulator over HTTP.
describe('converge CLI lifecycle', () => {
  let world: TestWorld;
  const password = 'pw-lifecycle-8d1f0c';
  const build = (email: string, extra = false) => synthApp((stack) => {
    const org = new Organization(stack, 'org', { name: 'lifecycle', email, removalPolicy: RemovalPolicy.DESTROY });
    new KvSecret(stack, 'db', { path: `${org.name}/db`, data: { user: 'app', password: SecretValue.fromEnv('LC_PASSWORD') } });
    if (extra) new KvSecret(stack, 'extra', { path: 'lifecycle/extra', data: { a: '1' } });
  });

  beforeAll(async () => { world = await startWorld({}, { LC_PASSWORD: password }); });
  afterAll(async () => { await world.stop(); });

  const kv = (p: string) => fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/${p}`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
  const org = (name: string) => fetch(`${world.env.PLATFORM_ADDRESS}/api/v2/organizations/${name}`, { headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}` } });

  test('plan, apply, no-op plan, update, drift, saved plan, import, destroy', async () => {
    const v1 = build('ops@lifecycle.io');

    let r = await cliAsync(['plan', '--synth-dir', v1, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/\+ org \(platform\.Organization\) will be created/);
    expect(r.stdout).toMatch(/Plan: 2 to add, 0 to change, 0 to replace, 0 to destroy/);

    r = await cliAsync(['apply', '--synth-dir', v1, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Apply complete: 2 done, 0 failed, 0 skipped/);
    expect((await org('lifecycle')).status).toBe(200);
    const secret = await (await kv('lifecycle/db')).json() as { data: { data: Record<string, string> } };
    expect(secret.data.data).toEqual({ user: 'app', password });

    r = await cliAsync(['plan', '--synth-dir', v1, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/No changes/);

    // An update in place, field by field.
    const v2 = build('platform@lifecycle.io');
    r = await cliAsync(['plan', '--synth-dir', v2, '--detailed-exitcode', '--json'], world.env);
    expect(r.status).toBe(2);
    const planDoc = JSON.parse(r.stdout);
    const orgChange = planDoc.stacks[0].changes.find((c: { address: string }) => c.address === 'org');
    expect(orgChange.action).toBe('update');
    expect(orgChange.fields).toEqual([expect.objectContaining({ path: 'email', before: 'ops@lifecycle.io', after: 'platform@lifecycle.io' })]);
    r = await cliAsync(['apply', '--synth-dir', v2, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    const orgDoc = await (await org('lifecycle')).json() as { data: { attributes: { email: string } } };
    expect(orgDoc.data.attributes.email).toBe('platform@lifecycle.io');

    // Drift: the secret changed behind converge's back is found, masked, and converged back.
    await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/lifecycle/db`, {
      method: 'POST', headers: { 'x-secrets-token': world.env.SECRETS_TOKEN!, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { user: 'app', password: 'by-hand-3f9a' } }),
    });
    r = await cliAsync(['plan', '--synth-dir', v2, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/Drift: objects changed outside converge/);
    expect(r.stdout).toMatch(/data\.password = \(sensitive, changed outside converge\)/);
    expect(r.stdout).not.toContain('by-hand-3f9a');
    expect(r.stdout).not.toContain(password);
    r = await cliAsync(['apply', '--synth-dir', v2, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect(((await (await kv('lifecycle/db')).json()) as { data: { data: Record<string, string> } }).data.data.password).toBe(password);

    // A soft-deleted secret reads as gone: the plan says so and the apply writes it again.
    await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/lifecycle/db`, { method: 'DELETE', headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    expect((await kv('lifecycle/db')).status).toBe(404);
    r = await cliAsync(['plan', '--synth-dir', v2, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/deleted outside converge/);
    expect(r.stdout).toMatch(/\+ db \(secrets\.KvSecret\) will be created/);
    r = await cliAsync(['apply', '--synth-dir', v2, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect(((await (await kv('lifecycle/db')).json()) as { data: { data: Record<string, string> } }).data.data.password).toBe(password);

    // A saved plan is applied exactly, and refused once the state has moved.
    const v3 = build('platform@lifecycle.io', true);
    const planFile = path.join(world.dir, 'e2e.plan');
    r = await cliAsync(['plan', '--synth-dir', v3, '--out', planFile], world.env);
    expect(r.status).toBe(0);
    expect(fs.readFileSync(planFile, 'utf8')).not.toContain(password);
    const stale = path.join(world.dir, 'stale.plan');
    fs.copyFileSync(planFile, stale);
    r = await cliAsync(['apply', planFile], world.env);
    expect(r.status).toBe(0);
    expect((await kv('lifecycle/extra')).status).toBe(200);
    r = await cliAsync(['apply', stale], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/the saved plan is stale/);

    // Import: forget an object, then take it back by its id; the plan is a no-op again.
    r = await cliAsync(['state', 'rm', 'extra', '--stack', 'e2e'], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['import', 'extra', 'secret/lifecycle/extra', '--synth-dir', v3], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    r = await cliAsync(['state', 'list', '--stack', 'e2e'], world.env);
    expect(r.stdout).toMatch(/^extra\tsecrets\.KvSecret\tsecret\/lifecycle\/extra$/m);
    r = await cliAsync(['plan', '--synth-dir', v3, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);

    // Destroy removes everything (the organization here has removal policy destroy).
    r = await cliAsync(['destroy', '--synth-dir', v3, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect((await kv('lifecycle/db')).status).toBe(404);
    expect((await org('lifecycle')).status).toBe(404);
    r = await cliAsync(['state', 'list', '--stack', 'e2e'], world.env);
    expect(r.stdout.trim()).toBe('');
  });

  test('a reference to a Terraform attribute, a bad prop and a missing secret fail clearly and change nothing', async () => {
    expect(() => synthApp((stack) => new Organization(stack, 'org', { name: 'bad name', email: 'x@y.io' })))
      .toThrow(/e2e\/org: name .*letters/);
    const dir = synthApp((stack) => {
      new KvSecret(stack, 'db', { path: 'missing/db', data: { password: SecretValue.fromEnv('NOT_SET_ANYWHERE') } });
    });
    const r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/e2e\/db: data\.password: environment variable NOT_SET_ANYWHERE is not set/);
    expect((await kv('missing/db')).status).toBe(404);
  });
});
