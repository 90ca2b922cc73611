import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { SecretValue, TerraformBridge } from '../../lib';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { CLI, startWorld, synthApp, tempDir, TestWorld } from '../support/harness';

// No Terraform binary here: the test plays Terraform's part. It reads the provisioners from the
// synthesized cdk.tf.json, substitutes `self.*` as Terraform does, and runs each command with
// `sh -c` in the stack's directory (where `cdktf deploy` runs Terraform), with Terraform's environment.

interface LocalExec { command: string; when?: string; environment?: Record<string, string> }
interface NullResourceJson { triggers: Record<string, string>; lifecycle: { create_before_destroy: boolean }; provisioner: { 'local-exec': LocalExec }[] }

const STACK = 'bridged';

function readBridge(outdir: string): NullResourceJson {
  const tf = JSON.parse(fs.readFileSync(path.join(outdir, 'stacks', STACK, 'cdk.tf.json'), 'utf8'));
  const all = Object.values(tf.resource.null_resource) as NullResourceJson[];
  expect(all).toHaveLength(1);
  expect(tf.provider.null).toBeDefined();
  return all[0];
}

/** Terraform's interpolation of `self` in a provisioner (the only object a destroy-time provisioner may reference). */
function interpolate(command: string, self: { id: string; triggers: Record<string, string> }): string {
  return command.replace(/\$\{self\.(id|triggers\.([A-Za-z0-9_]+))\}/g, (_m, what: string, key?: string) => {
    const v = key ? self.triggers[key] : self.id;
    if (v === undefined) throw new Error(`Terraform would fail: ${what} is not set`);
    return v;
  });
}

function runAsTerraform(p: LocalExec, self: { id: string; triggers: Record<string, string> }, cwd: string, env: NodeJS.ProcessEnv):
  Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', interpolate(p.command, self)], { cwd, env: { ...env, ...p.environment } });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    child.on('close', (status) => resolve({ status, output }));
  });
}

describe('TerraformBridge', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  const kv = (p: string) => fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/${p}`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
  const outdir = tempDir('converge-bridge-');
  const synth = (value: string, bridgeEnv?: Record<string, string>) => synthApp((stack) => {
    new KvSecret(stack, 'app', { path: 'bridge/app', data: { value, token: SecretValue.unsafePlainText('in-app-secret-5c1d') } });
    new TerraformBridge(stack, 'bridge', { convergeCommand: CLI, environment: bridgeEnv });
  }, STACK, outdir);

  test('synthesizes a null_resource with a desired-state trigger, create_before_destroy and both provisioners', () => {
    synth('v1');
    const r = readBridge(outdir);
    expect(r.lifecycle.create_before_destroy).toBe(true);
    expect(r.triggers.stack).toBe(STACK);
    expect(r.triggers.desired_state).toMatch(/^[0-9a-f]{64}$/);
    const [create, destroy] = r.provisioner.map((p) => p['local-exec']);
    expect(create.when).toBeUndefined();
    expect(create.command).toMatch(/ bridge apply --stack \$\{self\.triggers\.stack\} --synth-dir \.\.\/\.\. --generation \$\{self\.id\}$/);
    expect(destroy.when).toBe('destroy');
    expect(destroy.command).toMatch(/ bridge destroy --stack \$\{self\.triggers\.stack\} .* --generation \$\{self\.id\}$/);
    // The same app synthesizes the same trigger (an in-app secret is sealed anew each time, but hashed by its value).
    synth('v1');
    expect(readBridge(outdir).triggers.desired_state).toBe(r.triggers.desired_state);
    synth('v2');
    expect(readBridge(outdir).triggers.desired_state).not.toBe(r.triggers.desired_state);
  });

  test('applies on create, never destroys on a replacement, destroys on a real destroy', async () => {
    const cwd = path.join(outdir, 'stacks', STACK);

    // terraform apply: create generation 1, its create-time provisioner applies the stack.
    synth('v1');
    const gen1 = { id: '1111111111111111111', triggers: readBridge(outdir).triggers };
    const [create1, destroy1] = readBridge(outdir).provisioner.map((p) => p['local-exec']);
    let r = await runAsTerraform(create1, gen1, cwd, world.env);
    expect(r.output).toMatch(/Apply complete: 1 done, 0 failed/);
    expect(r.status).toBe(0);
    expect(((await (await kv('bridge/app')).json()) as any).data.data).toEqual({ value: 'v1', token: 'in-app-secret-5c1d' });

    // The desired state changes: the trigger changes, Terraform replaces the resource, creating the new one first.
    synth('v2');
    const gen2 = { id: '2222222222222222222', triggers: readBridge(outdir).triggers };
    expect(gen2.triggers.desired_state).not.toBe(gen1.triggers.desired_state);
    const [create2, destroy2] = readBridge(outdir).provisioner.map((p) => p['local-exec']);
    r = await runAsTerraform(create2, gen2, cwd, world.env);
    expect(r.status).toBe(0);
    expect(((await (await kv('bridge/app')).json()) as any).data.data.value).toBe('v2');
    // ... then destroys the deposed one, whose destroy provisioner comes from the old configuration.
    r = await runAsTerraform(destroy1, gen1, cwd, world.env);
    expect(r.status).toBe(0);
    expect(r.output).toMatch(/replaced by generation 2222222222222222222; nothing to destroy/);
    expect((await kv('bridge/app')).status).toBe(200);

    // cdktf destroy: generation 2 is still the newest, so its objects are destroyed.
    r = await runAsTerraform(destroy2, gen2, cwd, world.env);
    expect(r.output).toMatch(/Destroy complete: 1 done, 0 failed/);
    expect(r.status).toBe(0);
    expect((await kv('bridge/app')).status).toBe(404);
  });

  test('a failed apply fails the provisioner (Terraform then marks the resource tainted)', async () => {
    synthApp((stack) => {
      new KvSecret(stack, 'app', { path: 'bridge/failing', data: { p: SecretValue.fromEnv('BRIDGE_UNSET_VARIABLE') } });
      new TerraformBridge(stack, 'bridge', { convergeCommand: CLI });
    }, STACK, outdir);
    const r0 = readBridge(outdir);
    const r = await runAsTerraform(r0.provisioner[0]['local-exec'], { id: '3333', triggers: r0.triggers }, path.join(outdir, 'stacks', STACK), world.env);
    expect(r.status).toBe(1);
    expect(r.output).toMatch(/BRIDGE_UNSET_VARIABLE is not set/);
  });
});
