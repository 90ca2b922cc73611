import * as fs from 'fs';
import * as path from 'path';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { ServiceDefaults } from '../../lib/mesh/config-entry/service-defaults';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';
import { startOpenBao, TestOpenBao } from '../support/openbao';
import { describeWithTool, realTools } from '../support/real-tools';


// `converge policy` reads the synthesized output, which in the recommended CI setup a pull request
// writes (docs/security.md): a path or name there must never add a rule to the policy it prints
// (issue 32 item 3). The attacker's output is written by hand, as an attacker would: a legitimate
// synth, then its strings replaced in cdk.tf.json.
const INJECTED = 'team/app" { capabilities = ["read"] }\npath "*" { capabilities = ["create", "read", "update", "delete", "list", "sudo"] }\n#';

/** A synth of a KvSecret at `team/app` (and whatever `more` adds), with `team/app` replaced by `injected` in the output. */
function attackersOutput(injected: string, more: Parameters<typeof synthApp>[0] = () => undefined): string {
  const dir = synthApp((st) => { new KvSecret(st, 'kv', { path: 'team/app', data: { a: '1' } }); more(st); }, 'pr');
  const file = path.join(dir, 'stacks', 'pr', 'cdk.tf.json');
  const text = fs.readFileSync(file, 'utf8');
  const replaced = text.split('"team/app"').join(JSON.stringify(injected));
  expect(replaced).not.toBe(text);
  fs.writeFileSync(file, replaced);
  return dir;
}

describe('converge policy: paths and names from the synthesized output (emulator)', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  const cases: [string, string][] = [
    ['a quote and a newline', INJECTED],
    ['a control character', 'team/a\u0007pp'],
    ['a backslash', 'team/a\\"pp'],
    ['a trailing "*" (an ACL glob)', 'team/*'],
    ['a "+" segment (an ACL wildcard)', 'team/+/app'],
    ['a "{{" template', 'team/{{identity.entity.name}}'],
  ];
  for (const [what, injected] of cases) {
    test(`a KV path with ${what} is refused naming the construct and the field, and no policy is printed`, async () => {
      const dir = attackersOutput(injected);
      for (const args of [['policy'], ['policy', '--json']]) {
        const r = await cliAsync([...args, '--synth-dir', dir], world.env);
        expect([what, r.status]).toEqual([what, 1]);
        expect(r.stderr).toMatch(/pr\/kv.*path/);
        expect(r.stdout).not.toMatch(/path "\*"|sudo/);
        expect(r.stdout).not.toContain('capabilities');
      }
    });
  }

  test('the constructs refuse such paths at synth', () => {
    for (const [what, injected] of cases) {
      expect(() => synthApp((st) => { new KvSecret(st, 'kv', { path: injected, data: { a: '1' } }); }, 'synth'))
        .toThrow(/kv.*path/);
    }
    expect(() => synthApp((st) => { new KvSecret(st, 'kv', { mount: 'sec*', path: 'a', data: { a: '1' } }); }, 'synth')).toThrow(/mount/);
    expect(() => synthApp((st) => { new ServiceDefaults(st, 'svc', { name: 'web" { policy = "write" }\nservice_prefix "" {' }); }, 'synth')).toThrow(/name/);
  });

  test('a mesh entry name that would add a Consul ACL rule is refused (hand-written output)', async () => {
    const dir = synthApp((st) => { new ServiceDefaults(st, 'svc', { name: 'web' }); }, 'pr');
    const file = path.join(dir, 'stacks', 'pr', 'cdk.tf.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').split('"web"').join(JSON.stringify('web" { policy = "read" }\nservice_prefix "" { policy = "write" }\n#')));
    const r = await cliAsync(['policy', '--synth-dir', dir, '--json'], world.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/pr\/svc.*name/);
    expect(r.stdout).not.toContain('service_prefix');
  });

  test('a mount that is not a string (or is gone) is refused, never printed as a wildcard', async () => {
    for (const [what, replacement] of [['an object', '"mount": {"x": 1}'], ['a number', '"mount": 5'], ['nothing', '"unused": 1']]) {
      const dir = synthApp((st) => { new KvSecret(st, 'kv', { path: 'team/app', data: { a: '1' } }); }, 'pr');
      const file = path.join(dir, 'stacks', 'pr', 'cdk.tf.json');
      const text = fs.readFileSync(file, 'utf8');
      fs.writeFileSync(file, text.replace(/"mount":\s*"secret"/, replacement));
      const r = await cliAsync(['policy', '--synth-dir', dir, '--json'], world.env);
      expect([what, r.status]).toEqual([what, 1]);
      expect(r.stderr).toMatch(/pr\/kv.*mount: must be a string/);
      expect(r.stdout).not.toContain('+/data');
    }
  });

  test('legitimate paths with unusual characters are printed quoted as they are', async () => {
    const dir = synthApp((st) => { new KvSecret(st, 'kv', { path: 'team/a b%c/ünï-é', data: { a: '1' } }); }, 'legit');
    const r = await cliAsync(['policy', '--synth-dir', dir, '--json'], world.env);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).secretsPolicy).toContain('path "secret/data/team/a b%c/ünï-é" { capabilities = ["create", "read", "update"] }');
  });
});

describeWithTool('BAO', 'converge policy on a real OpenBao: a token holding the printed policy reaches only what the stack declares', () => {
  let bao: TestOpenBao;
  let world: TestWorld;
  beforeAll(async () => {
    [bao, world] = await Promise.all([startOpenBao(realTools().BAO!), startWorld()]);
    expect((await bao.api('POST', 'secret/data/other-team/payroll', { data: { iban: 'x' } })).status).toBe(200);
    expect((await bao.api('POST', `secret/data/team/${encodeURIComponent('a b%c')}`, { data: { a: '1' } })).status).toBe(200);
  });
  afterAll(async () => { await Promise.all([bao?.stop(), world?.stop()]); });

  test('the attacker\'s path is refused; the policy printed for a legitimate path with unusual characters grants that path alone', async () => {
    const attack = await cliAsync(['policy', '--synth-dir', attackersOutput(INJECTED), '--json'], world.env);
    expect(attack.status).toBe(1);

    const dir = synthApp((st) => { new KvSecret(st, 'kv', { path: 'team/a b%c', data: { a: '1' } }); }, 'legit');
    const r = await cliAsync(['policy', '--synth-dir', dir, '--json'], world.env);
    expect(r.status).toBe(0);
    const policy = JSON.parse(r.stdout).secretsPolicy as string;
    expect((await bao.api('PUT', 'sys/policies/acl/converge-paths', { policy })).status).toBe(204);
    const made = await bao.api('POST', 'auth/token/create', { policies: ['converge-paths'], no_default_policy: true });
    expect(made.status).toBe(200);
    const token = made.body.auth.client_token as string;
    expect((await bao.api('GET', `secret/data/${encodeURIComponent('team')}/${encodeURIComponent('a b%c')}`, undefined, token)).status).toBe(200);
    expect((await bao.api('GET', 'secret/data/other-team/payroll', undefined, token)).status).toBe(403);
    expect((await bao.api('POST', 'sys/auth/x', { type: 'userpass' }, token)).status).toBe(403);
  });
});

describe('the printed policy is escaped HCL', () => {
  test('a path is one quoted string whatever it holds', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { policyHcl } = require('../../lib/secrets/policy') as typeof import('../../lib/secrets/policy');
    expect(policyHcl([{ path: 'a"b\n${x}%{y}\\', capabilities: ['read'] }])).toBe('path "a\\"b\\n$${x}%%{y}\\\\" { capabilities = ["read"] }');
  });
});
