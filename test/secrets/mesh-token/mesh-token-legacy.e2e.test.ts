import { TerraformStack } from 'cdktf';
import { SecretValue } from '../../../lib/core/constructs/secret-value';
import { MeshTokenConfig } from '../../../lib/secrets/mesh-token/mesh-token-config';
import { MeshTokenRole, MeshTokenType } from '../../../lib/secrets/mesh-token/mesh-token-role';
import { cliAsync, startWorld, synthApp, TestWorld } from '../../support/harness';

// Through the CLI against an emulated mesh 1.10: a role with the parameters of that version is
// applied, read back (no changes on the next plan), and drift on its policy is found.
describe('mesh-token roles for a mesh below 1.11', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld({ meshVersion: '1.10.4' }); });
  afterAll(async () => { await world.stop(); });

  test('applied, read back, drift found and converged', async () => {
    const policy = Buffer.from('service "web" { policy = "read" }').toString('base64');
    const app = synthApp((st: TerraformStack) => {
      new MeshTokenConfig(st, 'mesh', { address: new URL(world.env.MESH_HTTP_ADDR!).host, token: SecretValue.fromEnv('MESH_HTTP_TOKEN') });
      new MeshTokenRole(st, 'legacy', { name: 'legacy', meshVersion: '1.10', policy, meshPolicies: ['global-management'], tokenType: MeshTokenType.CLIENT });
    }, 'legacy');
    let r = await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.stdout).not.toMatch(/failed:/);
    expect(r.status).toBe(0);
    r = await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], world.env);
    expect(r.stdout).toMatch(/No changes/);
    const other = Buffer.from('service "db" { policy = "write" }').toString('base64');
    const w = await fetch(`${world.env.SECRETS_ADDR}/v1/mesh/roles/legacy`, {
      method: 'POST', headers: { 'x-secrets-token': world.env.SECRETS_TOKEN!, 'content-type': 'application/json' },
      body: JSON.stringify({ policy: other }),
    });
    expect(w.status).toBe(204);
    r = await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/policy/);
    expect((await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env)).status).toBe(0);
    r = await cliAsync(['plan', '--synth-dir', app, '--detailed-exitcode'], world.env);
    expect(r.stdout).toMatch(/No changes/);
  });
});

describe('mesh-token access configured without a token', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  // The emulated mesh starts with a management token, as a real one with acl.tokens.initial_management:
  // the service's bootstrap is refused, and the apply says so (as against such a real mesh).
  test('the service cannot bootstrap a mesh that has a management token: the apply fails saying why', async () => {
    const app = synthApp((st: TerraformStack) => {
      new MeshTokenConfig(st, 'mesh', { address: new URL(world.env.MESH_HTTP_ADDR!).host });
      new MeshTokenRole(st, 'admin', { name: 'admin', meshPolicies: ['global-management'] });
    }, 'boot');
    const r = await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env);
    expect(r.status).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/Token not provided and failed to bootstrap ACLs: .*ACL bootstrap no longer allowed/);
    const again = await fetch(`${world.env.MESH_HTTP_ADDR}/v1/acl/bootstrap`, { method: 'PUT' });
    expect(again.status).toBe(403);
  });
});
