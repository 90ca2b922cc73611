import * as fs from 'fs';
import * as path from 'path';
import { App, TerraformStack } from 'cdktf';
import { RemovalPolicy } from '../../lib/core/constructs/removal-policy';
import { LocalBackend } from '../../lib/core/state/local-backend';
import { PostgresBackend } from '../../lib/core/state/postgres-backend';
import { PlatformState } from '../../lib/platform/emulator/state';
import { Organization } from '../../lib/platform/organization/organization';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { TotpKey } from '../../lib/secrets/totp/totp-key';
import { allFiles, cliAsync, startWorld, tempDir, TestWorld } from '../support/harness';
import { startPostgres, TestPostgres } from '../support/postgres';

/** Synthesizes an app of two stacks, `producer` and `consumer` (in this order of names, the consumer sorts first). */
function twoStacks(build: (producer: TerraformStack, consumer: TerraformStack) => void): string {
  const outdir = tempDir('converge-synth-');
  const app = new App({ outdir });
  build(new TerraformStack(app, 'producer'), new TerraformStack(app, 'consumer'));
  app.synth();
  return outdir;
}

const converge = (outdir: string, stack: string) =>
  JSON.parse(fs.readFileSync(path.join(outdir, 'stacks', stack, 'cdk.tf.json'), 'utf8'))['//'].metadata.converge;

// Issue 17: references between converge stacks, read from the other stack's state (as cdktf reads a remote state).
describe('cross-stack references: synth', () => {
  test('a typed attribute and a legacy reference to another stack render as cross-stack references; the stack records what it reads', () => {
    const out = twoStacks((p, c) => {
      const org = new Organization(p, 'org', { name: 'xs-org', email: 'a@b.io' });
      const src = new KvSecret(p, 'src', { path: 'xs/src', data: { x: '1' } });
      new KvSecret(c, 'dst', { path: 'xs/dst', data: { org: org.externalId, v: src.version } });
    });
    const consumer = converge(out, 'consumer');
    expect(consumer.resources.dst.spec.data).toEqual({
      org: { $ref: 'org', attr: 'externalId', stack: 'producer' },
      v: { $ref: 'src', attr: 'version', stack: 'producer' },
    });
    // Not a dependency inside the stack: the producer's constructs are not the consumer's.
    expect(consumer.resources.dst.dependsOn).toEqual([]);
    expect(consumer.dependsOnStacks).toEqual({ producer: ['dst'] });
    expect(converge(out, 'producer').dependsOnStacks).toBeUndefined();
  });

  test('an explicit dependency on a construct of another stack is a stack dependency, not an address of this stack', () => {
    const out = twoStacks((p, c) => {
      const src = new KvSecret(p, 'src', { path: 'xs/src', data: { x: '1' } });
      new KvSecret(c, 'after', { path: 'xs/after', data: { x: '1' } }).node.addDependency(src);
    });
    const consumer = converge(out, 'consumer');
    expect(consumer.resources.after.dependsOn).toEqual([]);
    expect(consumer.dependsOnStacks).toEqual({ producer: ['after'] });
  });

  test('stacks that read from each other are refused at synth, naming the references', () => {
    const app = new App({ outdir: tempDir('converge-synth-') });
    const a = new TerraformStack(app, 'a');
    const b = new TerraformStack(app, 'b');
    const one = new KvSecret(a, 'one', { path: 'xs/one', data: { x: '1' } });
    const two = new KvSecret(b, 'two', { path: 'xs/two', data: { v: one.version } });
    new KvSecret(a, 'three', { path: 'xs/three', data: { v: two.version } });
    expect(() => app.synth()).toThrow(/references between stacks form a cycle \((a -> b -> a|b -> a -> b)\): .*b\/two: refers to a\/one\.version.*a\/three: refers to b\/two\.version|references between stacks form a cycle \((a -> b -> a|b -> a -> b)\): .*a\/three: refers to b\/two\.version.*b\/two: refers to a\/one\.version/);
  });
});

describe('cross-stack references through the CLI', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  const kv = async (p: string) => {
    const r = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/${p}`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    return { status: r.status, data: r.status === 200 ? ((await r.json()) as { data: { data: Record<string, unknown> } }).data.data : undefined };
  };
  const stateFile = (stack: string) => path.join(world.dir, '.converge', 'stacks', stack, 'state.json');

  const app = (x: string) => twoStacks((p, c) => {
    const org = new Organization(p, 'org', { name: 'xs-acme', email: 'a@b.io', removalPolicy: RemovalPolicy.DESTROY });
    const src = new KvSecret(p, 'src', { path: 'xs/src', data: { x } });
    new KvSecret(c, 'dst', { path: 'xs/dst', data: { org: org.externalId, v: src.version } });
    // A plain (not sensitive) field fed by a typed attribute of the other stack.
    new Organization(c, 'mirror', { name: 'xs-mirror', email: 'a@b.io', ownersTeamSamlRoleId: org.externalId, removalPolicy: RemovalPolicy.DESTROY });
  });
  const org = (name: string) => Object.values((world.emulator.apis.platform.snapshot() as PlatformState).organizations).find((o) => o.name === name);

  test('a synthesized app whose stacks read from each other (written by hand) is refused before anything is read', async () => {
    const dir = app('1');
    const file = path.join(dir, 'stacks', 'producer', 'cdk.tf.json');
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    doc['//'].metadata.converge.dependsOnStacks = { consumer: ['src'] };
    fs.writeFileSync(file, JSON.stringify(doc));
    const r = await cliAsync(['plan', '--synth-dir', dir, '--stack', '*'], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/references between stacks form a cycle \((consumer -> producer -> consumer|producer -> consumer -> producer)\)/);
  });

  test('the consumer alone before the producer is applied fails clearly and writes nothing', async () => {
    const dir = app('1');
    for (const cmd of [['plan'], ['apply', '--auto-approve']]) {
      const r = await cliAsync([...cmd, '--synth-dir', dir, '--stack', 'consumer'], world.env);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/consumer\/(dst|mirror): refers to producer\/(org\.externalId|src\.version), which stack producer has not applied yet \(apply it first\)/);
    }
    expect(fs.existsSync(stateFile('consumer'))).toBe(false);
    expect((await kv('xs/dst')).status).toBe(404);
    // Several stacks still need choosing.
    const r = await cliAsync(['plan', '--synth-dir', dir], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/several stacks \(consumer, producer\).*--stack '\*'/);
  });

  test('apply of every stack: the producer first, the consumer gets its values; a change of the producer reaches the consumer', async () => {
    let r = await cliAsync(['plan', '--synth-dir', app('1'), '--stack', '*'], world.env);
    expect(r.status).toBe(0);
    // The producer is planned first; what its apply makes is known after apply in the consumer's plan.
    expect(r.stdout.indexOf('src (secrets.KvSecret)')).toBeLessThan(r.stdout.indexOf('dst (secrets.KvSecret)'));
    expect(r.stdout).toMatch(/\+ ownersTeamSamlRoleId = [^\n]*\(known after apply\)/);

    r = await cliAsync(['apply', '--synth-dir', app('1'), '--stack', '*', '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const external = org('xs-acme')!.externalId;
    expect(external).toMatch(/^org-/);
    expect(org('xs-mirror')!.attributes['owners-team-saml-role-id']).toBe(external);
    expect((await kv('xs/dst')).data).toEqual({ org: external, v: 1 });
    r = await cliAsync(['plan', '--synth-dir', app('1'), '--stack', '*', '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);
    // The consumer alone reads the producer's state.
    r = await cliAsync(['plan', '--synth-dir', app('1'), '--stack', 'consumer', '--detailed-exitcode'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    // Without the producer's lock: it reads a snapshot while another run holds the producer.
    const lock = await new LocalBackend(path.join(world.dir, '.converge')).lock('producer', 'apply');
    try {
      r = await cliAsync(['plan', '--synth-dir', app('1'), '--stack', 'consumer', '--detailed-exitcode'], world.env);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      r = await cliAsync(['plan', '--synth-dir', app('1'), '--stack', 'producer'], world.env);
      expect(r.stderr).toMatch(/state of stack "producer" is locked/);
    } finally {
      await lock.release();
    }

    // The producer's update changes the version the consumer reads: known after apply, then applied.
    r = await cliAsync(['plan', '--synth-dir', app('2'), '--stack', 'producer', '--stack', 'consumer', '--detailed-exitcode'], world.env);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/dst \(secrets\.KvSecret\)[^\n]*updated/);
    expect(r.stdout).toMatch(/data\.v = \(sensitive[^\n]*\)/);
    expect(r.stdout).not.toMatch(/mirror \(platform\.Organization\)/);
    r = await cliAsync(['apply', '--synth-dir', app('2'), '--stack', '*', '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect((await kv('xs/dst')).data).toEqual({ org: external, v: 2 });
    expect(JSON.parse(fs.readFileSync(stateFile('consumer'), 'utf8')).resources.dst.stackRefs).toEqual(['producer/org.externalId', 'producer/src.version']);

    // A saved plan of both stacks: the consumer's reference is resolved once the producer is applied.
    const planFile = path.join(tempDir(), 'both.plan');
    r = await cliAsync(['plan', '--synth-dir', app('3'), '--stack', '*', '--out', planFile], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['apply', planFile], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((await kv('xs/dst')).data).toEqual({ org: external, v: 3 });

    // A saved plan of the consumer alone is stale once the producer's state moved.
    r = await cliAsync(['plan', '--synth-dir', app('3'), '--stack', 'consumer', '--out', planFile], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['apply', '--synth-dir', app('4'), '--stack', 'producer', '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['apply', planFile], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/the saved plan is stale: stack consumer reads values from stack producer, whose state has changed since the plan was made/);

    // Destroying the producer alone warns, naming the consumer stack; destroying both goes consumer first, without a warning.
    r = await cliAsync(['plan', '--synth-dir', app('4'), '--stack', 'producer', '--destroy'], world.env);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/Warning: other stacks in local \([^)]*\) read values of stack producer: consumer \(dst reads producer\/org\.externalId, dst reads producer\/src\.version, mirror reads producer\/org\.externalId\)/);
    r = await cliAsync(['destroy', '--synth-dir', app('4'), '--stack', '*', '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.indexOf('dst (secrets.KvSecret)')).toBeLessThan(r.stdout.indexOf('src (secrets.KvSecret)'));
    expect((await kv('xs/dst')).status).toBe(404);
    expect((await kv('xs/src')).status).toBe(404);
  });

  test('a lookup of the producer read across stacks: known, and no change once applied, when every stack is planned', async () => {
    const seed = twoStacks((p) => { new Organization(p, 'seed', { name: 'xs-seed', email: 'a@b.io', removalPolicy: RemovalPolicy.DESTROY }); });
    expect((await cliAsync(['apply', '--synth-dir', seed, '--stack', 'producer', '--auto-approve'], { ...world.env, CONVERGE_DIR: path.join(world.dir, 'seed') })).status).toBe(0);
    const dir = twoStacks((p, c) => {
      const found = Organization.fromName(p, 'found', 'xs-seed');
      new KvSecret(c, 'ext', { path: 'xs/ext', data: { ext: found.organizationExternalId } });
    });
    // A stack with nothing but a lookup still records it, since another stack reads it from state.
    let r = await cliAsync(['plan', '--synth-dir', dir, '--stack', 'producer', '--detailed-exitcode'], world.env);
    expect(r.stdout).toMatch(/found \(lookup:platform\.Organization\) will be read \(other stacks read it: what it read is recorded in state\)/);
    expect(r.status).toBe(2);
    r = await cliAsync(['apply', '--synth-dir', dir, '--stack', '*', '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((await kv('xs/ext')).data).toEqual({ ext: org('xs-seed')!.externalId });
    r = await cliAsync(['plan', '--synth-dir', dir, '--stack', '*', '--detailed-exitcode'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    r = await cliAsync(['destroy', '--synth-dir', dir, '--stack', '*', '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['destroy', '--synth-dir', seed, '--stack', 'producer', '--auto-approve'], { ...world.env, CONVERGE_DIR: path.join(world.dir, 'seed') });
    expect(r.status).toBe(0);
  });

  test('destroying a producer that a consumer still reads: a warning naming the consumer; the consumer\'s next plan fails clearly', async () => {
    const dir = app('1');
    let r = await cliAsync(['apply', '--synth-dir', dir, '--stack', '*', '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['destroy', '--synth-dir', dir, '--stack', 'producer', '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/read values of stack producer: consumer \(dst reads producer\/org\.externalId, dst reads producer\/src\.version, mirror reads producer\/org\.externalId\)/);
    expect(r.stderr).toMatch(/converge destroy --stack consumer/);
    r = await cliAsync(['plan', '--synth-dir', dir, '--stack', 'consumer'], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/consumer\/(dst|mirror): refers to producer\/(org\.externalId|src\.version), which stack producer has not applied yet \(apply it first\)/);
    r = await cliAsync(['destroy', '--synth-dir', dir, '--stack', 'consumer', '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect((await kv('xs/dst')).status).toBe(404);
  });

  test('a sensitive output read across stacks stays sensitive: never in the consumer\'s state, plan or output', async () => {
    const dir = twoStacks((p, c) => {
      const key = new TotpKey(p, 'mfa', { name: 'xs-ann', issuer: 'Acme', accountName: 'ann@acme.test' });
      new KvSecret(c, 'otp', { path: 'xs/otp', data: { url: key.url } });
    });
    let r = await cliAsync(['apply', '--synth-dir', dir, '--stack', '*', '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const shown = await cliAsync(['output', '--stack', 'producer', '--show-sensitive', '--json'], world.env);
    const url = JSON.parse(shown.stdout).mfa.url as string;
    expect(url).toMatch(/^otpauth:\/\//);
    const secretPart = new URL(url).searchParams.get('secret')!;
    // The value did flow: the consumer's object holds it.
    expect((await kv('xs/otp')).data).toEqual({ url });

    const consumerState = fs.readFileSync(stateFile('consumer'), 'utf8');
    expect(JSON.parse(consumerState).resources.otp.spec.data.url).toEqual({ $secret: { ref: 'producer/mfa.url' } });
    const plan = await cliAsync(['plan', '--synth-dir', dir, '--stack', 'consumer', '--json'], world.env);
    const planText = await cliAsync(['plan', '--synth-dir', dir, '--stack', '*'], world.env);
    const out = await cliAsync(['output', '--stack', 'consumer', '--json'], world.env);
    const saved = path.join(tempDir(), 'c.plan');
    r = await cliAsync(['plan', '--synth-dir', dir, '--stack', 'consumer', '--out', saved], world.env);
    expect(r.status).toBe(0);
    for (const text of [consumerState, plan.stdout, plan.stderr, planText.stdout, planText.stderr, out.stdout, fs.readFileSync(saved, 'utf8'),
      ...allFiles(path.join(world.dir, '.converge', 'stacks', 'consumer')).map((f) => f.text)]) {
      expect(text).not.toContain(secretPart);
      expect(text).not.toContain(encodeURIComponent(secretPart));
    }
    r = await cliAsync(['destroy', '--synth-dir', dir, '--stack', '*', '--auto-approve'], world.env);
    expect(r.status).toBe(0);
  });
});

describe('cross-stack references with the state in PostgreSQL', () => {
  let pg: TestPostgres;
  let world: TestWorld;
  beforeAll(async () => {
    pg = await startPostgres();
    world = await startWorld({}, { CONVERGE_STATE: pg.url });
  });
  afterAll(async () => {
    await world?.stop();
    await pg?.stop();
  });

  const app = (x: string) => twoStacks((p, c) => {
    const src = new KvSecret(p, 'src', { path: 'pgx/src', data: { x } });
    new KvSecret(c, 'dst', { path: 'pgx/dst', data: { v: src.version } });
  });
  const kv = async (p: string) => {
    const r = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/${p}`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    return ((await r.json()) as { data: { data: Record<string, unknown> } }).data.data;
  };

  test('the consumer reads the producer\'s row, without its lock, and sees what the producer\'s apply changed', async () => {
    let r = await cliAsync(['apply', '--synth-dir', app('1'), '--stack', '*', '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(await kv('pgx/dst')).toEqual({ v: 1 });
    const backend = new PostgresBackend(pg.url);
    const lock = await backend.lock('producer', 'apply');
    try {
      r = await cliAsync(['plan', '--synth-dir', app('1'), '--stack', 'consumer', '--detailed-exitcode'], world.env);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
    } finally {
      await lock.release();
      await backend.close();
    }
    r = await cliAsync(['apply', '--synth-dir', app('2'), '--stack', '*', '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect(await kv('pgx/dst')).toEqual({ v: 2 });
    r = await cliAsync(['destroy', '--synth-dir', app('2'), '--stack', '*', '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
