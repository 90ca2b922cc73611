import * as fs from 'fs';
import * as path from 'path';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import { VariableCategory } from '../../lib/platform/no-code/no-code-workspace';
import { Organization } from '../../lib/platform/organization/organization';
import { Variable } from '../../lib/platform/variable/variable';
import { VariableSet } from '../../lib/platform/variable-set/variable-set';
import { Workspace } from '../../lib/platform/workspace/workspace';
import { allFiles, cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

const ORG = 'e2e-varset-vars';
const SECRET = 'varset-secret-5d1f0a';
const SECRET2 = 'varset-secret-rotated-93be27';

// A variable set's own variables (go-tfe's VariableSetVariables: /varsets/<id>/relationships/vars), as tfe_variable with
// variable_set_id: a Variable that takes a variableSet instead of a workspace. Through the real CLI against the emulator.
describe('Variable of a VariableSet', () => {
  let world: TestWorld;
  const call = async (method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${world.env.PLATFORM_ADDRESS}/api/v2${p}`, {
      method, headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}`, 'content-type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const app = (region = 'eu-west-1') => synthApp((s) => {
    const org = Organization.fromName(s, 'org', ORG);
    const set = new VariableSet(s, 'creds', { organization: org, name: 'cloud creds' });
    new Variable(s, 'region', { variableSet: set, key: 'region', value: region, description: 'where' });
    new Variable(s, 'token', { variableSet: set, key: 'CLOUD_TOKEN', category: VariableCategory.ENV, sensitiveValue: SecretValue.fromEnv('VS_SECRET') });
  }, 'vsv');

  beforeAll(async () => {
    world = await startWorld();
    expect((await call('POST', '/organizations', { data: { type: 'organizations', attributes: { name: ORG, email: 'a@b.io' } } })).status).toBe(201);
  });
  afterAll(async () => { await world.stop(); });

  test('apply, no-op, drift, rotation, import and destroy; the sensitive value never in state or output', async () => {
    const env = { ...world.env, CONVERGE_DIR: path.join(world.dir, 'vsv'), VS_SECRET: SECRET };
    const dir = app();
    let r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const set = (await call('GET', `/organizations/${ORG}/varsets`)).body.data.find((v: any) => v.attributes.name === 'cloud creds');
    const vars = async () => ((await call('GET', `/varsets/${set.id}/relationships/vars`)).body.data as any[])
      .map((v) => ({ id: v.id, ...v.attributes, varset: v.relationships.varset.data.id })).sort((a, b) => a.key.localeCompare(b.key));
    const held = await vars();
    expect(held.map(({ key, value, category, sensitive, hcl, description, varset }) => ({ key, value, category, sensitive, hcl, description, varset }))).toEqual([
      { key: 'CLOUD_TOKEN', value: null, category: 'env', sensitive: true, hcl: false, description: '', varset: set.id },
      { key: 'region', value: 'eu-west-1', category: 'engine', sensitive: false, hcl: false, description: 'where', varset: set.id },
    ]);
    expect((await call('GET', `/varsets/${set.id}`)).body.data.attributes['var-count']).toBe(2);
    r = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], env);
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });

    // Changed by hand: drift, converged.
    const region = held.find((v) => v.key === 'region')!;
    expect((await call('PATCH', `/varsets/${set.id}/relationships/vars/${region.id}`, { data: { type: 'vars', attributes: { value: 'us-east-1' } } })).status).toBe(200);
    r = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], env);
    expect(r.status).toBe(2);
    expect(r.stdout).toContain('us-east-1');
    r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], env);
    expect(r.status).toBe(0);
    expect((await vars()).find((v) => v.key === 'region')!.value).toBe('eu-west-1');

    // The secret rotated: an update in place of the same variable, masked.
    const rotated = { ...env, VS_SECRET: SECRET2 };
    r = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], rotated);
    expect(r.status).toBe(2);
    expect(r.stdout).toContain('(sensitive, changed)');
    r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], rotated);
    expect(r.status).toBe(0);
    expect((await vars()).map((v) => v.id).sort()).toEqual(held.map((v) => v.id).sort());
    r = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], rotated);
    expect(r.status).toBe(0);

    // Imported elsewhere by <varset id>/<var id>: the plan after is a no-op.
    const imported = { ...rotated, CONVERGE_DIR: path.join(world.dir, 'vsv-imported') };
    for (const [address, id] of [['creds', set.id], ...held.map((v) => [v.key === 'region' ? 'region' : 'token', `${set.id}/${v.id}`])]) {
      r = await cliAsync(['import', address, id, '--synth-dir', dir], imported);
      expect({ address, status: r.status, stderr: r.stderr }).toEqual({ address, status: 0, stderr: '' });
    }
    r = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], imported);
    expect(r.status).toBe(0);

    for (const f of [...allFiles(path.join(world.dir, 'vsv')), ...allFiles(path.join(world.dir, 'vsv-imported')), ...allFiles(dir)]) {
      expect({ file: f.file, secret: f.text.includes(SECRET) || f.text.includes(SECRET2) }).toEqual({ file: f.file, secret: false });
    }

    r = await cliAsync(['destroy', '--synth-dir', dir, '--auto-approve'], rotated);
    expect(r.status).toBe(0);
    expect((await call('GET', `/varsets/${set.id}`)).status).toBe(404);
    expect(fs.existsSync(dir)).toBe(true);
  });

  test('a variable takes a workspace or a variable set: both, or neither, is refused naming the construct and the field', () => {
    expect(() => synthApp((s) => {
      const org = Organization.fromName(s, 'org', ORG);
      const set = new VariableSet(s, 'creds', { organization: org, name: 'c' });
      const ws = new Workspace(s, 'ws', { organization: org, name: 'w' });
      new Variable(s, 'both', { variableSet: set, workspace: ws, key: 'k', value: 'v' });
    }, 'bad')).toThrow(/both: variableSet cannot be given with workspace/);
    expect(() => synthApp((s) => { new Variable(s, 'neither', { key: 'k', value: 'v' }); }, 'bad2')).toThrow(/neither: workspace is required \(or variableSet, /);
  });
});
