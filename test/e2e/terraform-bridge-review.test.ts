import { spawn, spawnSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as http from 'http';
import { AddressInfo } from 'net';
import * as path from 'path';
import { App, LocalBackend, TerraformStack } from 'cdktf';
import { SecretValue, TerraformBridge } from '../../lib';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { CLI, ROOT, startWorld, tempDir, TestWorld } from '../support/harness';
import { describeWithTool, realTools } from '../support/real-tools';

// Issue 34 item 2 (Terraform bridge): a reviewer of `terraform plan` / `cdktf diff` sees, per object and
// field, what the bridge will make converge change (secrets masked); a failed deploy prints converge's
// plan once; an app without @cdktf/provider-null gets one line saying what to install.

describeWithTool('TERRAFORM', 'TerraformBridge under review: what terraform plan shows', () => {
  const tools = realTools();
  const PLANTED = `planted-${crypto.randomBytes(8).toString('hex')}`;
  const IN_APP = `in-app-${crypto.randomBytes(8).toString('hex')}`;
  const appDir = tempDir('converge-bridge-review-');
  let world: TestWorld;
  let tfEnv: NodeJS.ProcessEnv;
  const STACK = 'reviewed';

  beforeAll(async () => {
    world = await startWorld();
    const { CONVERGE_DIR: _unused, ...env } = world.env;
    tfEnv = { ...env, TF_CLI_CONFIG_FILE: tools.TF_CLI_CONFIG_FILE, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1', REVIEW_PLANTED: PLANTED };
  });
  afterAll(async () => {
    await world.stop();
    fs.rmSync(appDir, { recursive: true, force: true });
  });

  /** The app, synthesized anew as a CI job does: `app` with a field that changes, `other` that does not. */
  const synth = (value: string, maxVersions: number, more: (s: TerraformStack) => void = () => undefined) => {
    const outdir = path.join(appDir, 'cdktf.out');
    fs.rmSync(outdir, { recursive: true, force: true });
    const app = new App({ outdir });
    const s = new TerraformStack(app, STACK);
    new LocalBackend(s, { path: path.join(appDir, `terraform.${STACK}.tfstate`) });
    new KvSecret(s, 'app', { path: 'review/app', data: { value, password: SecretValue.fromEnv('REVIEW_PLANTED'), token: SecretValue.unsafePlainText(IN_APP) }, maxVersions });
    new KvSecret(s, 'other', { path: 'review/other', data: { colour: 'blue' } });
    more(s);
    new TerraformBridge(s, 'bridge', { convergeCommand: CLI, appDir });
    app.synth();
  };
  const terraform = (args: string[], extraEnv: Record<string, string> = {}) =>
    new Promise<{ status: number | null; out: string }>((resolve) => {
      const child = spawn(tools.TERRAFORM!, [...args, '-no-color'], { cwd: path.join(appDir, 'cdktf.out', 'stacks', STACK), env: { ...tfEnv, ...extraEnv } });
      let out = '';
      child.stdout.on('data', (d) => { out += d; });
      child.stderr.on('data', (d) => { out += d; });
      child.on('close', (status) => resolve({ status, out }));
    });
  /** A fresh synth dir has no .terraform: init, as each CI job does. */
  const init = async () => { expect((await terraform(['init', '-input=false'])).status).toBe(0); };
  const kv = async (p: string) => {
    const r = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/${p}`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    return r.status === 404 ? undefined : ((await r.json()) as any).data;
  };

  test('a change of one field of one object: the plan names the object and the field, old and new value; secrets only as markers', async () => {
    synth('v1', 0);
    await init();
    const first = await terraform(['apply', '-auto-approve', '-input=false']);
    expect(first.status).toBe(0);
    // The first plan shows every object's desired state, the secrets by their source or an HMAC.
    expect(first.out).toMatch(/\+ "object:app"\s+= jsonencode\(/);
    expect(first.out).toMatch(/password = "\(sensitive, from env REVIEW_PLANTED\)"/);
    expect(first.out).toMatch(/token\s+= "\(sensitive, hmac [0-9a-f]{16}\)"/);
    expect((await kv('review/app')).data.value).toBe('v1');

    synth('v2', 5);
    await init();
    const plan = await terraform(['plan', '-input=false', '-detailed-exitcode']);
    expect(plan.status).toBe(2);
    expect(plan.out).toMatch(/~ "object:app"\s+= jsonencode\(/);
    expect(plan.out).toMatch(/~ maxVersions\s+= 0 -> 5/);
    // A KV secret's data is sensitive (converge's plan shows it so): its change shows as a changed HMAC, not the value.
    expect(plan.out).toMatch(/~ value\s+= "\(sensitive, hmac [0-9a-f]{16}\)" -> "\(sensitive, hmac [0-9a-f]{16}\)"/);
    expect(plan.out).not.toMatch(/"v[12]"/);
    // The unchanged object and the unchanged secrets are not shown as changes.
    expect(plan.out).not.toMatch(/"object:other"/);
    expect(plan.out).not.toMatch(/[~+-] (password|token)\s+=/);
    for (const secret of [PLANTED, IN_APP]) {
      expect(first.out).not.toContain(secret);
      expect(plan.out).not.toContain(secret);
    }

    // An in-app secret that changes shows as a changed HMAC, never its value.
    const apply = await terraform(['apply', '-auto-approve', '-input=false']);
    expect(apply.status).toBe(0);
    expect((await kv('review/app')).data.value).toBe('v2');
    const state = fs.readFileSync(path.join(appDir, `terraform.${STACK}.tfstate`), 'utf8');
    for (const secret of [PLANTED, IN_APP]) expect(state).not.toContain(secret);
  });

  test("a failed deploy prints converge's plan once; the apply resource is tainted and the destroy holder is not", async () => {
    // converge plans (and prints its plan), applies `app`, then the API refuses the write of `later`: a proxy
    // in front of the secrets API answers that one write with a 400, as a server-side validation would.
    const proxy = http.createServer((req, res) => {
      if (req.method !== 'GET' && req.url === '/v1/secret/data/review/later') {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ errors: ['refused by the review test'] }));
        return;
      }
      const upstream = http.request(`${world.env.SECRETS_ADDR}${req.url}`, { method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode!, up.headers);
        up.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    synth('v3', 5, (s) => { new KvSecret(s, 'later', { path: 'review/later', data: { p: 'x' } }); });
    await init();
    const r = await terraform(['apply', '-auto-approve', '-input=false'], { SECRETS_ADDR: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` });
    proxy.close();
    expect(r.status).toBe(1);
    // The plan appears once: Terraform's, whose triggers show each object's change. The provisioner prints
    // converge's progress and result, not its plan again, and Terraform's error repeats only that output.
    expect(r.out.match(/\+ "object:later"\s+= jsonencode\(/g)).toHaveLength(1);
    expect(r.out).not.toMatch(/converge will perform the following actions|will be created|will be updated/);
    expect(r.out).toMatch(/later: create failed/);
    expect(r.out).toMatch(/Error running command[\s\S]*refused by the review test/);
    const tfState = JSON.parse(fs.readFileSync(path.join(appDir, `terraform.${STACK}.tfstate`), 'utf8'));
    const tainted = tfState.resources.filter((x: any) => x.instances.some((i: any) => i.status === 'tainted')).map((x: any) => x.name);
    expect(tainted).toEqual([expect.stringContaining('apply')]);
    // Destroy still runs the holder's provisioner.
    const d = await terraform(['destroy', '-auto-approve', '-input=false']);
    expect(d.status).toBe(0);
    expect(d.out).toMatch(/bridge destroy/);
    expect(await kv('review/app')).toBeUndefined();
    expect(await kv('review/other')).toBeUndefined();
  });
});

describe('TerraformBridge without @cdktf/provider-null installed', () => {
  test('synth fails with one line naming the bridge and the npm command, and no stack trace', () => {
    // A user's app directory whose node_modules has everything but @cdktf/provider-null (symlinked, so
    // that Node resolves modules from the app's node_modules as it does for an installed package).
    const app = tempDir('converge-bridge-nonull-');
    const nm = path.join(app, 'node_modules');
    fs.mkdirSync(path.join(nm, '@cdktf'), { recursive: true });
    for (const e of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
      if (e !== '@cdktf') fs.symlinkSync(path.join(ROOT, 'node_modules', e), path.join(nm, e));
    }
    for (const e of fs.readdirSync(path.join(ROOT, 'node_modules', '@cdktf'))) {
      if (e !== 'provider-null') fs.symlinkSync(path.join(ROOT, 'node_modules', '@cdktf', e), path.join(nm, '@cdktf', e));
    }
    fs.mkdirSync(path.join(nm, 'cdk-converge'));
    fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(nm, 'cdk-converge', 'package.json'));
    fs.symlinkSync(path.join(ROOT, 'dist'), path.join(nm, 'cdk-converge', 'dist'));
    fs.writeFileSync(path.join(app, 'main.js'), [
      "const { App, TerraformStack } = require('cdktf');",
      "const { TerraformBridge } = require('cdk-converge');",
      'const app = new App();',
      "const stack = new TerraformStack(app, 'prod');",
      'new TerraformBridge(stack);',
      'app.synth();',
    ].join('\n'));
    const r = spawnSync(process.execPath, ['--preserve-symlinks', 'main.js'], { cwd: app, encoding: 'utf8' });
    fs.rmSync(app, { recursive: true, force: true });
    expect(r.status).toBe(1);
    const said = r.stderr.split('\n').filter((l) => /provider-null/.test(l));
    expect(said).toEqual([expect.stringMatching(/prod\/converge-bridge: TerraformBridge needs @cdktf\/provider-null, which is not installed: run npm i @cdktf\/provider-null/)]);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.stderr).not.toMatch(/Cannot find module|requireStack/);
  });
});
