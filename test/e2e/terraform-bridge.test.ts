import { execFileSync, spawn } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { App, LocalBackend, TerraformStack } from 'cdktf';
import { SecretValue, TerraformBridge } from '../../lib';
import { LocalBackend as ConvergeLocalBackend } from '../../lib/core/state/local-backend';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { CLI, cliAsync, startWorld, tempDir, TestWorld } from '../support/harness';
import { describeWithTool, realTools } from '../support/real-tools';

// Issue 24: the bridge as real Terraform 1.5.7 and the null provider 3.2.4 run it. cdktf-cli is not
// installed here: the test runs `terraform init` and `apply`/`destroy` in cdktf.out/stacks/<stack>,
// as a pipeline without cdktf-cli does, in the order cdktf.out/manifest.json gives (as `cdktf deploy`).

interface LocalExec { command: string; when?: string; working_dir?: string }
interface NullResourceJson { triggers: Record<string, string>; lifecycle?: { create_before_destroy?: boolean }; depends_on?: string[]; provisioner: { 'local-exec': LocalExec }[] }

type Build = (stacks: Record<string, TerraformStack>) => void;

/** An app in `appDir` (as a checkout of it), synthesized into `appDir/cdktf.out`, which is removed first (a fresh CI job has none). */
function synth(appDir: string, stackNames: string[], build: Build, environment?: Record<string, string>): string {
  const outdir = path.join(appDir, 'cdktf.out');
  fs.rmSync(outdir, { recursive: true, force: true });
  const app = new App({ outdir });
  const stacks: Record<string, TerraformStack> = {};
  for (const name of stackNames) {
    stacks[name] = new TerraformStack(app, name);
    // cdktf's default: the Terraform state beside the app (cdktf puts it in the directory it runs in).
    new LocalBackend(stacks[name], { path: path.join(appDir, `terraform.${name}.tfstate`) });
  }
  build(stacks);
  for (const name of stackNames) new TerraformBridge(stacks[name], 'bridge', { convergeCommand: CLI, appDir, environment });
  app.synth();
  return outdir;
}

function stackJson(appDir: string, stack: string): any {
  return JSON.parse(fs.readFileSync(path.join(appDir, 'cdktf.out', 'stacks', stack, 'cdk.tf.json'), 'utf8'));
}

function bridgeResources(appDir: string, stack: string): { apply: NullResourceJson; destroy: NullResourceJson } {
  const all = stackJson(appDir, stack).resource.null_resource as Record<string, NullResourceJson>;
  expect(Object.keys(all)).toHaveLength(2);
  const apply = Object.entries(all).find(([k]) => k.includes('apply'))![1];
  const destroy = Object.entries(all).find(([k]) => k.includes('destroy'))![1];
  return { apply, destroy };
}

/** The stacks in the order `cdktf deploy` deploys them: each after the stacks the manifest says it depends on. */
function deployOrder(appDir: string): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(appDir, 'cdktf.out', 'manifest.json'), 'utf8'));
  const out: string[] = [];
  const visit = (name: string) => {
    if (out.includes(name)) return;
    for (const dep of manifest.stacks[name].dependencies as string[]) visit(dep.split('/').pop()!);
    out.push(name);
  };
  Object.keys(manifest.stacks).sort().forEach(visit);
  return out;
}

/** Every file under `dir` as text, except Terraform's provider cache (`.terraform/`, binaries and links). */
function filesOf(dir: string): { file: string; text: string }[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && !path.join(e.parentPath, e.name).split(path.sep).includes('.terraform'))
    .map((e) => ({ file: path.join(e.parentPath, e.name), text: fs.readFileSync(path.join(e.parentPath, e.name), 'latin1') }));
}

describe('TerraformBridge: synth', () => {
  const appDir = tempDir('converge-bridge-app-');
  afterAll(() => fs.rmSync(appDir, { recursive: true, force: true }));
  const one = (value: string): Build => ({ s }) => {
    new KvSecret(s, 'app', { path: 'bridge/app', data: { value, token: SecretValue.unsafePlainText('in-app-secret-5c1d') } });
  };

  test('a never-replaced resource holds only the destroy provisioner; the desired-state-triggered one holds only the apply; both run converge in the app directory', () => {
    synth(appDir, ['s'], one('v1'));
    const { apply, destroy } = bridgeResources(appDir, 's');
    // The destroy holder: its only trigger is the stack name; create_before_destroy leaves it deposed (silent) if it is ever replaced.
    expect(destroy.triggers).toEqual({ stack: 's' });
    expect(destroy.lifecycle?.create_before_destroy).toBe(true);
    expect(destroy.provisioner.map((p) => p['local-exec'].when)).toEqual(['destroy']);
    expect(destroy.provisioner[0]['local-exec'].command).toMatch(/ bridge destroy --stack s --synth-dir cdktf\.out$/);
    // The apply resource: triggered by the desired state, created after the holder, no destroy-time provisioner.
    expect(Object.keys(apply.triggers).sort()).toEqual(['desired_state', 'object:app', 'stack']);
    expect(apply.triggers.desired_state).toMatch(/^[0-9a-f]{64}$/);
    expect(apply.depends_on).toEqual([expect.stringMatching(/^null_resource\..*destroy/)]);
    expect(apply.provisioner.map((p) => p['local-exec'].when)).toEqual([undefined]);
    expect(apply.provisioner[0]['local-exec'].command).toMatch(/ bridge apply --stack s --synth-dir cdktf\.out$/);
    // Terraform runs in cdktf.out/stacks/s: the provisioners run in the app's directory, where converge keeps its state.
    for (const r of [apply, destroy]) {
      expect(path.resolve(appDir, 'cdktf.out', 'stacks', 's', r.provisioner[0]['local-exec'].working_dir!)).toBe(appDir);
    }
    // The same app synthesizes the same trigger (an in-app secret is sealed anew each time, but hashed by its value).
    synth(appDir, ['s'], one('v1'));
    expect(bridgeResources(appDir, 's').apply.triggers.desired_state).toBe(apply.triggers.desired_state);
    synth(appDir, ['s'], one('v2'));
    expect(bridgeResources(appDir, 's').apply.triggers.desired_state).not.toBe(apply.triggers.desired_state);
  });

  test('both provisioners get the environment (and working directory) given to the bridge', () => {
    synth(appDir, ['s'], one('v1'), { CONVERGE_STATE: './converge-state' });
    const { apply, destroy } = bridgeResources(appDir, 's');
    for (const r of [apply, destroy]) expect((r.provisioner[0]['local-exec'] as LocalExec & { environment?: unknown }).environment).toEqual({ CONVERGE_STATE: './converge-state' });
  });

  test("a stack that reads another's values depends on it (cdktf's manifest) and its trigger changes with the producer's desired state", () => {
    const app = (x: string): Build => ({ producer, consumer }) => {
      const src = new KvSecret(producer, 'src', { path: 'xs/src', data: { x } });
      new KvSecret(consumer, 'dst', { path: 'xs/dst', data: { v: src.version } });
    };
    synth(appDir, ['producer', 'consumer'], app('1'));
    const manifest = JSON.parse(fs.readFileSync(path.join(appDir, 'cdktf.out', 'manifest.json'), 'utf8'));
    expect(manifest.stacks.consumer.dependencies).toEqual(['producer']);
    expect(manifest.stacks.producer.dependencies).toEqual([]);
    expect(deployOrder(appDir)).toEqual(['producer', 'consumer']);
    const before = bridgeResources(appDir, 'consumer').apply.triggers;
    expect(before.reads).toMatch(/^producer=[0-9a-f]{64}$/);
    expect(bridgeResources(appDir, 'producer').apply.triggers.reads).toBeUndefined();
    synth(appDir, ['producer', 'consumer'], app('2'));
    const after = bridgeResources(appDir, 'consumer').apply.triggers;
    expect(after.desired_state).toBe(before.desired_state);
    expect(after.reads).not.toBe(before.reads);
  });
});

describe('converge bridge: state outside the synth directory', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  test('local state inside the synth directory is refused, naming CONVERGE_STATE; nothing is created', async () => {
    const appDir = tempDir('converge-bridge-app-');
    const outdir = synth(appDir, ['s'], ({ s }) => { new KvSecret(s, 'app', { path: 'bridge/refused', data: { x: '1' } }); });
    for (const env of [{ CONVERGE_STATE: path.join(outdir, 'state') }, { CONVERGE_STATE: undefined, CONVERGE_DIR: path.join(outdir, 'stacks', 's', '.converge') }]) {
      const r = await cliAsync(['bridge', 'apply', '--stack', 's', '--synth-dir', 'cdktf.out'], { ...world.env, ...env }, appDir);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/inside the synth directory .*cdktf\.out.*CONVERGE_STATE/);
    }
    const kv = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/bridge/refused`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    expect(kv.status).toBe(404);
    expect(fs.existsSync(path.join(outdir, 'state'))).toBe(false);
    fs.rmSync(appDir, { recursive: true, force: true });
  });

  test('bridge destroy of a stack with no state fails, naming where it looked, when its objects exist; a stack never applied is fine', async () => {
    const appDir = tempDir('converge-bridge-app-');
    synth(appDir, ['lost'], ({ lost }) => { new KvSecret(lost, 'app', { path: 'bridge/lost', data: { x: '1' } }); });
    const kv = async () => (await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/bridge/lost`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } })).status;
    // Never applied: nothing to destroy, and nothing is wrong.
    const elsewhere = { CONVERGE_STATE: path.join(appDir, 'state-elsewhere') };
    let r = await cliAsync(['bridge', 'destroy', '--stack', 'lost', '--synth-dir', 'cdktf.out'], { ...world.env, ...elsewhere }, appDir);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/stack lost has no state in local \(.*state-elsewhere\) and none of its objects exists: it was never applied; nothing to destroy/);
    expect(r.status).toBe(0);
    // Applied with its state in one place, destroyed with another: refused, naming both the place and the objects found.
    r = await cliAsync(['bridge', 'apply', '--stack', 'lost', '--synth-dir', 'cdktf.out'], { ...world.env, CONVERGE_STATE: path.join(appDir, 'state-here') }, appDir);
    expect(r.status).toBe(0);
    r = await cliAsync(['bridge', 'destroy', '--stack', 'lost', '--synth-dir', 'cdktf.out'], { ...world.env, ...elsewhere }, appDir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/stack lost has no state in local \(.*state-elsewhere\), but its objects exist \(app\): its state is kept elsewhere; nothing was destroyed\. Give the bridge's provisioners the CONVERGE_STATE/);
    expect(await kv()).toBe(200);
    fs.rmSync(appDir, { recursive: true, force: true });
  });
});

describeWithTool('TERRAFORM', 'TerraformBridge run by real Terraform 1.5.7 and the null provider', () => {
  const tools = realTools();
  const PLANTED = `planted-${crypto.randomBytes(8).toString('hex')}`;
  const IN_APP = `in-app-${crypto.randomBytes(8).toString('hex')}`;
  const appDir = tempDir('converge-bridge-app-');
  const logs: string[] = [];
  const plans: string[] = [];
  let world: TestWorld;
  let tfEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    world = await startWorld();
    // No CONVERGE_DIR: converge keeps its state where it runs, and the bridge runs it in the app's directory.
    const { CONVERGE_DIR: _unused, ...env } = world.env;
    tfEnv = {
      ...env, TF_CLI_CONFIG_FILE: tools.TF_CLI_CONFIG_FILE, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1',
      TF_LOG: 'trace', TF_LOG_PATH: path.join(appDir, 'terraform-trace.log'), BRIDGE_PLANTED: PLANTED,
    };
  });
  afterAll(async () => {
    await world.stop();
    fs.rmSync(appDir, { recursive: true, force: true });
  });

  const headers = () => ({ 'x-secrets-token': world.env.SECRETS_TOKEN! });
  const kvData = async (p: string) => {
    const r = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/${p}`, { headers: headers() });
    return r.status === 404 ? undefined : ((await r.json()) as any).data;
  };
  const addresses = async (stack: string) =>
    Object.keys((await new ConvergeLocalBackend(path.join(appDir, '.converge')).read(stack))?.resources ?? {}).sort();

  /** Runs Terraform in the stack's directory (asynchronously: the emulator lives in this process). */
  const terraform = (stack: string, args: string[], extraEnv: Record<string, string | undefined> = {}) =>
    new Promise<{ status: number | null; out: string }>((resolve) => {
      const child = spawn(tools.TERRAFORM!, [...args, '-no-color'], { cwd: path.join(appDir, 'cdktf.out', 'stacks', stack), env: { ...tfEnv, ...extraEnv } });
      let out = '';
      child.stdout.on('data', (d) => { out += d; });
      child.stderr.on('data', (d) => { out += d; });
      child.on('close', (status) => { logs.push(out); resolve({ status, out }); });
    });
  /** `cdktf deploy` of one stack: init (a fresh synth dir has no .terraform), plan to a file, apply the plan. */
  const deploy = async (stack: string, extraEnv: Record<string, string | undefined> = {}) => {
    expect((await terraform(stack, ['init', '-input=false'])).status).toBe(0);
    const plan = await terraform(stack, ['plan', '-input=false', '-out=tfplan', '-detailed-exitcode'], extraEnv);
    expect([0, 2]).toContain(plan.status);
    plans.push(execFileSync('unzip', ['-p', path.join(appDir, 'cdktf.out', 'stacks', stack, 'tfplan')]).toString('latin1'));
    const apply = await terraform(stack, ['apply', '-input=false', 'tfplan'], extraEnv);
    return { plan, apply };
  };
  const destroy = async (stack: string) => {
    expect((await terraform(stack, ['init', '-input=false'])).status).toBe(0);
    return terraform(stack, ['destroy', '-auto-approve', '-input=false']);
  };
  const tfState = (stack: string) => {
    const f = path.join(appDir, `terraform.${stack}.tfstate`);
    return fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) : { resources: [] };
  };
  const tainted = (stack: string) => tfState(stack).resources.flatMap((r: any) => r.instances.filter((i: any) => i.status === 'tainted').map(() => r.name));
  const applyAddress = (stack: string) => `null_resource.${Object.keys(stackJson(appDir, stack).resource.null_resource).find((k) => k.includes('apply'))}`;

  const STACK = 'bridged';
  const app = (value: string, more: (s: TerraformStack) => void = () => undefined) => synth(appDir, [STACK], ({ [STACK]: s }) => {
    new KvSecret(s, 'app', { path: 'bridge/app', data: { value, password: SecretValue.fromEnv('BRIDGE_PLANTED'), token: SecretValue.unsafePlainText(IN_APP) } });
    more(s);
  });
  const later = (s: TerraformStack) => { new KvSecret(s, 'later', { path: 'bridge/later', data: { p: SecretValue.fromEnv('BRIDGE_LATER') } }); };

  test('deploy, unchanged deploy, change, failed deploy then fix, taint then apply, destroy after a failed deploy and after a taint', async () => {
    // Deploy: the destroy holder is created first, then the apply resource, whose provisioner applies the stack.
    app('v1');
    let r = await deploy(STACK);
    expect(r.apply.out).toMatch(/Apply complete: 1 done, 0 failed/);
    expect(r.apply.status).toBe(0);
    expect((await kvData('bridge/app')).data).toEqual({ value: 'v1', password: PLANTED, token: IN_APP });
    expect(await addresses(STACK)).toEqual(['app']);
    // converge's state is in the app's directory, where `converge plan` run by hand finds it: nothing to do.
    const byHand = await cliAsync(['plan', '--stack', STACK, '--synth-dir', 'cdktf.out', '--detailed-exitcode'], { ...tfEnv, TF_LOG: undefined }, appDir);
    expect(byHand.stdout).toMatch(/No changes/);
    expect(byHand.status).toBe(0);
    expect(fs.readdirSync(path.join(appDir, 'cdktf.out', 'stacks', STACK))).not.toContain('.converge');

    // An unchanged deploy in a fresh job (cdktf.out synthesized anew): Terraform has nothing to do, converge does not run.
    app('v1');
    r = await deploy(STACK);
    expect(r.plan.status).toBe(0);
    expect(r.apply.out).toMatch(/Resources: 0 added, 0 changed, 0 destroyed/);
    expect(r.apply.out).not.toMatch(/bridge apply/);
    expect((await kvData('bridge/app')).metadata.version).toBe(1);
    expect(await addresses(STACK)).toEqual(['app']);

    // A change in a fresh job: the apply resource is replaced (the holder is not), converge updates the secret in place.
    app('v2');
    r = await deploy(STACK);
    expect(r.plan.out).toMatch(/null_resource\.\S*apply\S* must be replaced/);
    expect(r.plan.out).not.toMatch(/null_resource\.\S*destroy\S* must be replaced/);
    expect(r.apply.out).toMatch(/Apply complete: 1 done, 0 failed/);
    expect(r.apply.out).not.toMatch(/bridge destroy/);
    expect(r.apply.status).toBe(0);
    let kv = await kvData('bridge/app');
    expect(kv.data.value).toBe('v2');
    expect(kv.metadata.version).toBe(2); // a new version of the same secret: updated, not re-created
    expect(await addresses(STACK)).toEqual(['app']);

    // A failed deploy: the provisioner fails, Terraform fails and taints the apply resource.
    app('v3', later);
    r = await deploy(STACK);
    expect(r.apply.status).toBe(1);
    expect(r.apply.out).toMatch(/BRIDGE_LATER is not set/);
    expect(tainted(STACK)).toEqual([applyAddress(STACK).split('.')[1]]);
    // converge refused the plan (a secret it cannot read): nothing was half done.
    expect((await kvData('bridge/app')).data.value).toBe('v2');
    expect(await kvData('bridge/later')).toBeUndefined();
    expect(await addresses(STACK)).toEqual(['app']);
    // ... then the fix, in a fresh job: the tainted resource is replaced, its provisioner applies everything.
    app('v3', later);
    r = await deploy(STACK, { BRIDGE_LATER: 'later-1' });
    expect(r.apply.status).toBe(0);
    expect(tainted(STACK)).toEqual([]);
    expect((await kvData('bridge/app')).data.value).toBe('v3');
    expect((await kvData('bridge/later')).data).toEqual({ p: 'later-1' });
    expect(await addresses(STACK)).toEqual(['app', 'later']);

    // taint, then apply: the apply resource is replaced and converge runs again, changing nothing.
    app('v3', later);
    expect((await terraform(STACK, ['init', '-input=false'])).status).toBe(0);
    expect((await terraform(STACK, ['taint', applyAddress(STACK)])).status).toBe(0);
    r = await deploy(STACK, { BRIDGE_LATER: 'later-1' });
    expect(r.apply.status).toBe(0);
    expect(r.apply.out).toMatch(/bridge apply/);
    expect(r.apply.out).toMatch(/No changes/);
    expect((await kvData('bridge/app')).metadata.version).toBe(3);
    expect(await addresses(STACK)).toEqual(['app', 'later']);

    // Destroy after a failed deploy: the apply resource is tainted, the holder's destroy provisioner still runs.
    app('v4', (s) => { later(s); new KvSecret(s, 'never', { path: 'bridge/never', data: { p: SecretValue.fromEnv('BRIDGE_NEVER') } }); });
    r = await deploy(STACK, { BRIDGE_LATER: 'later-1' });
    expect(r.apply.status).toBe(1);
    expect(tainted(STACK)).toHaveLength(1);
    app('v4', (s) => { later(s); new KvSecret(s, 'never', { path: 'bridge/never', data: { p: SecretValue.fromEnv('BRIDGE_NEVER') } }); });
    let d = await destroy(STACK);
    expect(d.out).toMatch(/bridge destroy/);
    expect(d.out).toMatch(/Destroy complete: 2 done, 0 failed/);
    expect(d.status).toBe(0);
    for (const p of ['bridge/app', 'bridge/later', 'bridge/never']) expect(await kvData(p)).toBeUndefined();
    expect(await addresses(STACK)).toEqual([]);
    expect(tfState(STACK).resources).toEqual([]);

    // Destroy after a taint: deployed anew, the apply resource tainted, then destroyed: nothing left.
    app('v5');
    r = await deploy(STACK);
    expect(r.apply.status).toBe(0);
    expect((await kvData('bridge/app')).data.value).toBe('v5');
    app('v5');
    expect((await terraform(STACK, ['init', '-input=false'])).status).toBe(0);
    expect((await terraform(STACK, ['taint', applyAddress(STACK)])).status).toBe(0);
    // A destroy whose provisioner fails (a wrong token) fails; the holder stays, untainted, and nothing is lost ...
    d = await terraform(STACK, ['destroy', '-auto-approve', '-input=false'], { SECRETS_TOKEN: 'not-the-token' });
    expect(d.status).toBe(1);
    expect(tfState(STACK).resources.map((x: any) => x.name)).toEqual([expect.stringContaining('destroy')]);
    expect(tainted(STACK)).toEqual([]);
    expect((await kvData('bridge/app')).data.value).toBe('v5');
    expect(await addresses(STACK)).toEqual(['app']);
    // ... and the next destroy runs it again.
    d = await destroy(STACK);
    expect(d.status).toBe(0);
    expect(d.out).toMatch(/Destroy complete: 1 done, 0 failed/);
    expect(await kvData('bridge/app')).toBeUndefined();
    expect(await addresses(STACK)).toEqual([]);
    expect(tfState(STACK).resources).toEqual([]);
  });

  test('two stacks with a reference deploy in order, share state, and a change of the producer re-runs the consumer', async () => {
    const twoStacks = (x: string) => synth(appDir, ['producer', 'consumer'], ({ producer, consumer }) => {
      const src = new KvSecret(producer, 'src', { path: 'xs/src', data: { x } });
      new KvSecret(consumer, 'dst', { path: 'xs/dst', data: { v: src.version } });
    });
    twoStacks('1');
    const order = deployOrder(appDir);
    expect(order).toEqual(['producer', 'consumer']);
    for (const s of order) expect((await deploy(s)).apply.status).toBe(0);
    expect((await kvData('xs/dst')).data).toEqual({ v: 1 });

    // The producer changes (a new version of src): the consumer's trigger changes too, so its deploy re-runs converge.
    twoStacks('2');
    for (const s of deployOrder(appDir)) {
      const r = await deploy(s);
      expect(r.plan.out).toMatch(/must be replaced/);
      expect(r.apply.status).toBe(0);
    }
    expect((await kvData('xs/dst')).data).toEqual({ v: 2 });
    expect(await addresses('consumer')).toEqual(['dst']);

    // cdktf destroy: consumers first.
    twoStacks('2');
    for (const s of deployOrder(appDir).reverse()) {
      const d = await destroy(s);
      expect(d.status).toBe(0);
      expect(d.out).not.toMatch(/other stacks .* read values/);
    }
    expect(await kvData('xs/src')).toBeUndefined();
    expect(await kvData('xs/dst')).toBeUndefined();
    expect([...await addresses('producer'), ...await addresses('consumer')]).toEqual([]);
  });

  test('without CONVERGE_STATE_KEY, the key converge creates is in the app directory too, where converge run by hand finds it', async () => {
    const keyless = tempDir('converge-bridge-keyless-');
    synth(keyless, ['k'], ({ k }) => { new KvSecret(k, 'app', { path: 'bridge/keyless', data: { p: SecretValue.fromEnv('BRIDGE_PLANTED') } }); });
    const { CONVERGE_STATE_KEY: _key, ...env } = tfEnv;
    const cwd = path.join(keyless, 'cdktf.out', 'stacks', 'k');
    const run = (args: string[]) => new Promise<{ status: number | null; out: string }>((resolve) => {
      const child = spawn(tools.TERRAFORM!, [...args, '-no-color'], { cwd, env });
      let out = '';
      child.stdout.on('data', (d) => { out += d; });
      child.stderr.on('data', (d) => { out += d; });
      child.on('close', (status) => { logs.push(out); resolve({ status, out }); });
    });
    expect((await run(['init', '-input=false'])).status).toBe(0);
    const r = await run(['apply', '-auto-approve', '-input=false']);
    expect(r.status).toBe(0);
    expect(r.out).toMatch(/created a state key in .*converge-bridge-keyless-[^/]*\/\.converge\/state\.key/);
    expect(fs.existsSync(path.join(keyless, '.converge', 'state.key'))).toBe(true);
    expect(fs.readdirSync(cwd)).not.toContain('.converge');
    // By hand, in the app directory: the same key compares the secret's HMAC; nothing to do.
    const byHand = await cliAsync(['plan', '--stack', 'k', '--synth-dir', 'cdktf.out', '--detailed-exitcode'], { ...env, TF_LOG: undefined }, keyless);
    expect(byHand.stdout).toMatch(/No changes/);
    expect(byHand.status).toBe(0);
    expect((await run(['destroy', '-auto-approve', '-input=false'])).status).toBe(0);
    expect(await kvData('bridge/keyless')).toBeUndefined();
    fs.rmSync(keyless, { recursive: true, force: true });
  });

  test("the destroy provisioner gets the bridge's environment: state kept where CONVERGE_STATE says is found, and its objects destroyed", async () => {
    const envApp = tempDir('converge-bridge-env-');
    synth(envApp, ['env'], ({ env }) => { new KvSecret(env, 'app', { path: 'bridge/env', data: { x: '1' } }); }, { CONVERGE_STATE: './converge-state' });
    const run = (args: string[]) => new Promise<{ status: number | null; out: string }>((resolve) => {
      const child = spawn(tools.TERRAFORM!, [...args, '-no-color'], { cwd: path.join(envApp, 'cdktf.out', 'stacks', 'env'), env: { ...tfEnv, TF_LOG: undefined } });
      let out = '';
      child.stdout.on('data', (d) => { out += d; });
      child.stderr.on('data', (d) => { out += d; });
      child.on('close', (status) => { resolve({ status, out }); });
    });
    expect((await run(['init', '-input=false'])).status).toBe(0);
    expect((await run(['apply', '-auto-approve', '-input=false'])).status).toBe(0);
    expect((await kvData('bridge/env')).data).toEqual({ x: '1' });
    const state = new ConvergeLocalBackend(path.join(envApp, 'converge-state'));
    expect(Object.keys((await state.read('env'))?.resources ?? {})).toEqual(['app']);
    const d = await run(['destroy', '-auto-approve', '-input=false']);
    expect(d.out).toMatch(/Destroy complete: 1 done, 0 failed/);
    expect(d.status).toBe(0);
    expect(await kvData('bridge/env')).toBeUndefined();
    expect(Object.keys((await state.read('env'))?.resources ?? {})).toEqual([]);
    fs.rmSync(envApp, { recursive: true, force: true });
  });

  test('the planted secrets are in no Terraform state, plan, output or log, nor in converge state', () => {
    expect(plans.length).toBeGreaterThan(5);
    const places = [
      ...logs.map((text, i) => ({ file: `terraform output #${i}`, text })),
      ...plans.map((text, i) => ({ file: `plan #${i}`, text })),
      ...filesOf(appDir),
    ];
    expect(places.some((p) => p.file.endsWith('terraform-trace.log'))).toBe(true);
    expect(places.some((p) => p.file.endsWith(`terraform.${STACK}.tfstate`))).toBe(true);
    expect(places.some((p) => p.file.includes(`${path.sep}.converge${path.sep}`))).toBe(true);
    for (const secret of [PLANTED, IN_APP]) expect(places.filter((p) => p.text.includes(secret)).map((p) => p.file)).toEqual([]);
  });
});
