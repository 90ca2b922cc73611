import * as fs from 'fs';
import { App, TerraformStack } from 'cdktf';
import { Organization } from '../../lib/platform/organization/organization';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, tempDir, TestWorld } from '../support/harness';

// After `destroy`, the organizations it kept (removal policy retain, their default) make the next
// plan a conflict: destroy says what it kept and the command that lets the next apply take them back.
describe('converge destroy', () => {
  let world: TestWorld;
  let outdir: string;
  beforeAll(async () => {
    world = await startWorld();
    outdir = tempDir('converge-synth-');
    const app = new App({ outdir });
    const a = new TerraformStack(app, 'alpha');
    new Organization(a, 'org', { name: 'kept-org', email: 'ops@kept.io' });
    new KvSecret(a, 'db', { path: 'kept/db', data: { user: 'app' } });
    new KvSecret(new TerraformStack(app, 'beta'), 'other', { path: 'kept/other', data: { x: '1' } });
    app.synth();
  });
  afterAll(async () => {
    await world.stop();
    fs.rmSync(outdir, { recursive: true, force: true });
  });
  const converge = (args: string[]) => cliAsync([...args, '--synth-dir', outdir], world.env);

  test('without a terminal nor --auto-approve, it says destroy (not apply) needs confirmation, and changes nothing', async () => {
    expect((await converge(['apply', '--auto-approve', '--stack', '*'])).status).toBe(0);
    const r = await converge(['destroy', '--stack', 'alpha']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('destroy needs confirmation: run it in a terminal, or pass --auto-approve (CI)');
    expect(r.stderr).not.toContain('apply needs');
    expect((await cliAsync(['state', 'list', '--stack', 'alpha'], world.env)).stdout).toMatch(/^org\t/m);
  });

  test("its summary names what it kept and the import (with --stack) that lets the next apply take it back", async () => {
    let r = await converge(['destroy', '--auto-approve', '--stack', 'alpha']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Kept on the API (removal policy retain): org (platform.Organization)');
    // An organization's identity is its name.
    const cmd = 'converge import --stack alpha org kept-org';
    expect(r.stdout).toContain(`\n  ${cmd}\n`);

    // Without it, the next plan is a conflict whose hint names the stack too.
    r = await converge(['plan', '--stack', 'alpha']);
    expect(r.status).toBe(1);
    expect(r.stdout + r.stderr).toContain(`to manage it: ${cmd}`);
    // With it, the next apply takes the organization back.
    r = await converge(cmd!.split(' ').slice(1));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    r = await converge(['apply', '--auto-approve', '--stack', 'alpha']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/1 done/);
  });
});
