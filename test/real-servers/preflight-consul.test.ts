import * as path from 'path';
import { TerraformStack } from 'cdktf';
import * as mesh from '../../lib/mesh';
import { startConsul, RealConsul } from '../support/consul';
import { cliAsync, synthApp, tempDir } from '../support/harness';
import { describeWithTool, realTools } from '../support/real-tools';


// Issue 33 item 2 against a real Consul 1.16 with ACLs (default deny): the mesh preflight reads
// acl/token/self and its policies' rules. A token that may read them (acl = "read") and lacks write on
// one service fails the plan and the apply naming the rule, with nothing written; a token holding only
// the printed rules cannot read its policies, so the run says it could not check, and goes on.
describeWithTool('CONSUL', 'mesh preflight against a real Consul 1.16', () => {
  let consul: RealConsul;
  beforeAll(async () => { consul = await startConsul(realTools().CONSUL!, { acls: true }); });
  afterAll(async () => { await consul?.stop(); });

  const api = async (method: string, p: string, body?: unknown, token = consul.managementToken!) => {
    const r = await fetch(`${consul.address}${p}`, { method, headers: { 'X-Consul-Token': token }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, body: r.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
  };
  const env = (token: string, stack: string) => ({
    PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', CONVERGE_STATE_KEY: process.env.CONVERGE_STATE_KEY,
    MESH_HTTP_ADDR: consul.address, MESH_HTTP_TOKEN: token, MESH_TOKEN_HEADER: 'X-Consul-Token', CONVERGE_DIR: path.join(stateDir, stack),
  });
  const stateDir = tempDir();
  const app = synthApp((st: TerraformStack) => {
    new mesh.ServiceDefaults(st, 'web', { name: 'pf-web', protocol: mesh.MeshProtocol.HTTP });
    new mesh.ServiceDefaults(st, 'api', { name: 'pf-api', protocol: mesh.MeshProtocol.HTTP });
  }, 'pfmesh');
  const tokenWith = async (name: string, rules: string) => {
    expect((await api('PUT', '/v1/acl/policy', { Name: name, Rules: rules })).status).toBe(200);
    const t = await api('PUT', '/v1/acl/token', { Description: name, Policies: [{ Name: name }] });
    expect(t.status).toBe(200);
    return t.body.SecretID as string;
  };
  const entries = async () => (await api('GET', '/v1/config/service-defaults')).body.map((e: { Name: string }) => e.Name).filter((n: string) => n.startsWith('pf-'));

  test('a token that may read its policies and lacks write on one service: plan and apply name the rule, nothing is written', async () => {
    const printed = JSON.parse((await cliAsync(['policy', '--json', '--synth-dir', app], env('x', 'policy'))).stdout).meshPolicy as string;
    expect(printed).toBe('service "pf-api" { policy = "write" }\nservice "pf-web" { policy = "write" }');
    const token = await tokenWith('pf-minus', `${printed.replace('service "pf-web" { policy = "write" }', 'service "pf-web" { policy = "read" }')}\nacl = "read"`);
    for (const args of [['plan'], ['apply', '--auto-approve']]) {
      const r = await cliAsync([...args, '--synth-dir', app], env(token, 'minus'));
      expect({ args, status: r.status }).toEqual({ args, status: 1 });
      expect(r.stderr).toContain('the mesh token lacks service "pf-web" { policy = "write" } (needed by pfmesh/web)');
      expect(r.stderr).toContain('nothing was written');
    }
    expect(await entries()).toEqual([]);
  });

  test('the printed rules and acl = "read": plan, apply and destroy succeed with nothing on stderr', async () => {
    const printed = JSON.parse((await cliAsync(['policy', '--json', '--synth-dir', app], env('x', 'policy'))).stdout).meshPolicy as string;
    const token = await tokenWith('pf-full', `${printed}\nacl = "read"`);
    for (const [args, want] of [[['apply', '--auto-approve'], 0], [['plan', '--detailed-exitcode'], 0], [['destroy', '--auto-approve'], 0]] as const) {
      const r = await cliAsync([...args, '--synth-dir', app], env(token, 'full'));
      expect({ args, status: r.status, stderr: r.stderr }).toEqual({ args, status: want, stderr: '' });
    }
    expect(await entries()).toEqual([]);
  });

  test('only the printed rules: the token may not read its policy, so the run says it could not check, and applies', async () => {
    const printed = JSON.parse((await cliAsync(['policy', '--json', '--synth-dir', app], env('x', 'policy'))).stdout).meshPolicy as string;
    const token = await tokenWith('pf-least', printed);
    const r = await cliAsync(['apply', '--auto-approve', '--synth-dir', app], env(token, 'least'));
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/^Preflight of stack pfmesh: could not check what the token may do on the mesh API \(MESH_HTTP_ADDR\): its policy "pf-least" answered 403 \(Permission denied: .*acl:read.*\) \(reading a token's policies needs acl = "read"\)\n$/);
    expect(await entries()).toEqual(['pf-api', 'pf-web']);
    expect((await cliAsync(['destroy', '--auto-approve', '--no-preflight', '--synth-dir', app], env(token, 'least'))).stderr).toBe('');
  });
});
