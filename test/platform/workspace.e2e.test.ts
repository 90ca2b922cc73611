import * as fs from 'fs';
import * as path from 'path';
import { Construct } from 'constructs';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import { VariableCategory } from '../../lib/platform/no-code/no-code-workspace';
import { IOrganization, Organization } from '../../lib/platform/organization/organization';
import { Project } from '../../lib/platform/project/project';
import { Team } from '../../lib/platform/team/team';
import { TeamAccess, TeamAccessLevel } from '../../lib/platform/team/team-access';
import { Variable } from '../../lib/platform/variable/variable';
import { VariableSet } from '../../lib/platform/variable-set/variable-set';
import { Workspace } from '../../lib/platform/workspace/workspace';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

const SECRET = 'ws-var-secret-7c1e90';
const SECRET2 = 'ws-var-secret-rotated-44ab02';
const ORG = 'e2e-ws';

const orgNamed = (scope: Construct, name: string): IOrganization =>
  (scope.node.tryFindChild(`org-${name}`) as IOrganization | undefined) ?? Organization.fromName(scope, `org-${name}`, name);

/** Every file under a directory, as text (the state and the plans converge wrote). */
function allText(dir: string): string {
  if (!fs.existsSync(dir)) return '';
  return fs.readdirSync(dir, { withFileTypes: true }).map((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? allText(p) : fs.readFileSync(p).toString('latin1');
  }).join('\n');
}

// Through the real CLI against the emulator: a project, a workspace in it and its variables (one sensitive).
describe('Project, Workspace and Variable', () => {
  let world: TestWorld;
  const call = async (method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${world.env.PLATFORM_ADDRESS}/api/v2${p}`, {
      method, headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}`, 'content-type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const app = (opts: { wsName?: string; secretEnv?: string; description?: string } = {}): string => synthApp((s) => {
    const org = orgNamed(s, ORG);
    const apps = new Project(s, 'apps', { organization: org, name: 'apps', description: 'the apps' });
    const ws = new Workspace(s, 'web', {
      organization: org, name: opts.wsName ?? 'web', project: apps, terraformVersion: '1.9.5', workingDirectory: 'infra', autoApply: true,
      tags: ['team:web', 'prod'], description: opts.description ?? 'web app',
    });
    new Variable(s, 'region', { workspace: ws, key: 'region', value: '"eu-west-1"', hcl: true });
    new Variable(s, 'token', { workspace: ws, key: 'API_TOKEN', category: VariableCategory.ENV, sensitiveValue: SecretValue.fromEnv(opts.secretEnv ?? 'WS_SECRET') });
  }, 'ws');

  beforeAll(async () => {
    world = await startWorld({}, { WS_SECRET: SECRET, WS_SECRET2: SECRET2 });
    expect((await call('POST', '/organizations', { data: { type: 'organizations', attributes: { name: ORG, email: 'a@b.io' } } })).status).toBe(201);
  });
  afterAll(async () => { await world.stop(); });

  test('apply creates them as the platform holds them; drift is found and converged; a rename is in place; destroy removes them', async () => {
    const dir = app();
    let r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const ws = (await call('GET', `/organizations/${ORG}/workspaces/web`)).body.data;
    const project = (await call('GET', `/organizations/${ORG}/projects?filter[names]=apps`)).body.data[0];
    expect(ws.relationships.project.data.id).toBe(project.id);
    expect(ws.attributes).toMatchObject({ 'engine-version': '1.9.5', 'working-directory': 'infra', 'auto-apply': true, 'execution-mode': 'remote', description: 'web app' });
    expect([...ws.attributes['tag-names']].sort()).toEqual(['prod', 'team:web']);
    const vars = (await call('GET', `/workspaces/${ws.id}/vars`)).body.data;
    expect(vars.map((v: any) => [v.attributes.key, v.attributes.category, v.attributes.value, v.attributes.sensitive]).sort())
      .toEqual([['API_TOKEN', 'env', null, true], ['region', 'engine', '"eu-west-1"', false]]);
    // The sensitive value is in no file converge wrote, nor in its output.
    expect(allText(world.env.CONVERGE_DIR!)).not.toContain(SECRET);
    expect(r.stdout).not.toContain(SECRET);

    r = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);

    // Changed outside converge: the description, a tag, the region's value.
    await call('PATCH', `/workspaces/${ws.id}`, { data: { type: 'workspaces', attributes: { description: 'changed by hand' } } });
    await call('POST', `/workspaces/${ws.id}/relationships/tags`, { data: [{ type: 'tags', attributes: { name: 'stray' } }] });
    const region = vars.find((v: any) => v.attributes.key === 'region');
    await call('PATCH', `/workspaces/${ws.id}/vars/${region.id}`, { data: { type: 'vars', attributes: { value: '"us-east-1"' } } });
    r = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/description/);
    expect(r.stdout).toMatch(/stray/);
    expect(r.stdout).toMatch(/us-east-1/);
    r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    const after = (await call('GET', `/workspaces/${ws.id}`)).body.data;
    expect(after.attributes.description).toBe('web app');
    expect([...after.attributes['tag-names']].sort()).toEqual(['prod', 'team:web']);
    r = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);

    // A new sensitive value is an update (compared by HMAC), never shown.
    const rotated = app({ secretEnv: 'WS_SECRET2' });
    r = await cliAsync(['plan', '--synth-dir', rotated, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/token \(platform\.Variable\)/);
    expect(r.stdout).not.toContain(SECRET2);
    r = await cliAsync(['apply', '--synth-dir', rotated, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect(allText(world.env.CONVERGE_DIR!)).not.toContain(SECRET2);

    // Renamed in place: the same workspace, its variables kept.
    const renamed = app({ secretEnv: 'WS_SECRET2', wsName: 'web2' });
    r = await cliAsync(['apply', '--synth-dir', renamed, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect((await call('GET', `/organizations/${ORG}/workspaces/web2`)).body.data.id).toBe(ws.id);
    r = await cliAsync(['plan', '--synth-dir', renamed, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);

    r = await cliAsync(['destroy', '--synth-dir', renamed, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect((await call('GET', `/workspaces/${ws.id}`)).status).toBe(404);
    expect((await call('GET', `/projects/${project.id}`)).status).toBe(404);
  });

  test('import: a project and a workspace by <organization>/<name>, a variable by <workspace id>/<variable id>; the plan after is a no-op', async () => {
    const prj = (await call('POST', `/organizations/${ORG}/projects`, { data: { type: 'projects', attributes: { name: 'apps', description: 'the apps' } } })).body.data;
    const ws = (await call('POST', `/organizations/${ORG}/workspaces`, { data: { type: 'workspaces',
      attributes: { name: 'web', 'engine-version': '1.9.5', 'working-directory': 'infra', 'auto-apply': true, 'tag-names': ['prod', 'team:web'], description: 'web app' },
      relationships: { project: { data: { type: 'projects', id: prj.id } } } } })).body.data;
    const region = (await call('POST', `/workspaces/${ws.id}/vars`, { data: { type: 'vars', attributes: { key: 'region', value: '"eu-west-1"', category: 'engine', hcl: true } } })).body.data;
    const token = (await call('POST', `/workspaces/${ws.id}/vars`, { data: { type: 'vars', attributes: { key: 'API_TOKEN', value: SECRET, category: 'env', sensitive: true } } })).body.data;
    const env = { ...world.env, CONVERGE_DIR: path.join(world.dir, 'imported') };
    const dir = app();
    for (const [address, id] of [['apps', `${ORG}/apps`], ['web', `${ORG}/web`], ['region', `${ws.id}/${region.id}`], ['token', `${ws.id}/${token.id}`]]) {
      const r = await cliAsync(['import', address, id, '--synth-dir', dir], env);
      expect({ address, status: r.status, stderr: r.stderr }).toEqual({ address, status: 0, stderr: '' });
    }
    const r = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], env);
    expect(r.stdout).toMatch(/No changes/);
    expect(r.status).toBe(0);
    expect(allText(env.CONVERGE_DIR)).not.toContain(SECRET);
  });

  test('Workspace.fromName: a variable on a workspace that exists outside the app', async () => {
    const env = { ...world.env, CONVERGE_DIR: path.join(world.dir, 'lookup') };
    const dir = synthApp((s) => {
      const ws = Workspace.fromName(s, 'existing', orgNamed(s, ORG), 'web');
      new Variable(s, 'extra', { workspace: ws, key: 'extra', value: 'x' });
    }, 'lookup');
    let r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], env);
    expect(r.status).toBe(0);
    const ws = (await call('GET', `/organizations/${ORG}/workspaces/web`)).body.data;
    const vars = (await call('GET', `/workspaces/${ws.id}/vars`)).body.data;
    expect(vars.some((v: any) => v.attributes.key === 'extra' && v.attributes.value === 'x')).toBe(true);
    const missing = synthApp((s) => { Workspace.fromName(s, 'nope', orgNamed(s, ORG), 'no-such-ws'); }, 'lookup2');
    r = await cliAsync(['plan', '--synth-dir', missing], env);
    expect(r.status).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/nope/);
  });

  test('Team with its organization access and TeamAccess to a workspace: apply, drift, import, destroy', async () => {
    const env = { ...world.env, CONVERGE_DIR: path.join(world.dir, 'teams') };
    const teamApp = (access: TeamAccessLevel) => synthApp((s) => {
      const org = orgNamed(s, ORG);
      const ws = new Workspace(s, 'tws', { organization: org, name: 'team-ws' });
      const ops = new Team(s, 'ops', { organization: org, name: 'ops', visibility: 'organization' as any, organizationAccess: { manageWorkspaces: true, readProjects: true } });
      new TeamAccess(s, 'ops-ws', { team: ops, workspace: ws, access });
    }, 'teams');
    let dir = teamApp(TeamAccessLevel.WRITE);
    let r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const team = (await call('GET', `/organizations/${ORG}/teams?filter[names]=ops`)).body.data[0];
    expect(team.attributes.visibility).toBe('organization');
    expect(team.attributes['organization-access']).toMatchObject({ 'manage-workspaces': true, 'read-projects': true, 'manage-teams': false });
    const ws = (await call('GET', `/organizations/${ORG}/workspaces/team-ws`)).body.data;
    const accesses = (await call('GET', `/team-workspaces?filter[workspace][id]=${ws.id}`)).body.data;
    expect(accesses.map((a: any) => [a.relationships.team.data.id, a.attributes.access])).toEqual([[team.id, 'write']]);

    // Changed by hand: the team's access and its organization access.
    await call('PATCH', `/team-workspaces/${accesses[0].id}`, { data: { type: 'team-workspaces', attributes: { access: 'read' } } });
    await call('PATCH', `/teams/${team.id}`, { data: { type: 'teams', attributes: { 'organization-access': { 'manage-teams': true } } } });
    r = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], env);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/access/);
    expect(r.stdout).toMatch(/manageTeams/);
    r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], env);
    expect(r.status).toBe(0);
    expect((await call('GET', `/team-workspaces/${accesses[0].id}`)).body.data.attributes.access).toBe('write');
    expect((await call('GET', `/teams/${team.id}`)).body.data.attributes['organization-access']['manage-teams']).toBe(false);

    // The level changes in place (the same access).
    dir = teamApp(TeamAccessLevel.ADMIN);
    r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], env);
    expect(r.status).toBe(0);
    expect((await call('GET', `/team-workspaces/${accesses[0].id}`)).body.data.attributes.access).toBe('admin');

    // Imported elsewhere: the plan after is a no-op.
    const imported = { ...world.env, CONVERGE_DIR: path.join(world.dir, 'teams-imported') };
    for (const [address, id] of [['tws', `${ORG}/team-ws`], ['ops', `${ORG}/ops`], ['ops-ws', accesses[0].id]]) {
      r = await cliAsync(['import', address, id, '--synth-dir', dir], imported);
      expect({ address, status: r.status, stderr: r.stderr }).toEqual({ address, status: 0, stderr: '' });
    }
    r = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], imported);
    expect(r.status).toBe(0);

    r = await cliAsync(['destroy', '--synth-dir', dir, '--auto-approve'], env);
    expect(r.status).toBe(0);
    expect((await call('GET', `/teams/${team.id}`)).status).toBe(404);
    expect((await call('GET', `/team-workspaces/${accesses[0].id}`)).status).toBe(404);
  });

  test('VariableSet applied to workspaces and projects: kept in sync, drift converged, imported, destroyed', async () => {
    const env = { ...world.env, CONVERGE_DIR: path.join(world.dir, 'varsets') };
    const setApp = (withProject: boolean) => synthApp((s) => {
      const org = orgNamed(s, ORG);
      const a = new Workspace(s, 'set-a', { organization: org, name: 'set-a' });
      const b = new Workspace(s, 'set-b', { organization: org, name: 'set-b' });
      const prj = new Project(s, 'set-prj', { organization: org, name: 'set-prj' });
      new VariableSet(s, 'set', { organization: org, name: 'cloud creds', priority: true, workspaces: withProject ? [a] : [a, b], projects: withProject ? [prj] : [] });
    }, 'varsets');
    let dir = setApp(false);
    let r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const set = (await call('GET', `/organizations/${ORG}/varsets`)).body.data.find((v: any) => v.attributes.name === 'cloud creds');
    const ids = async (kind: string) => ((await call('GET', `/varsets/${set.id}`)).body.data.relationships[kind].data as any[]).map((x) => x.id).sort();
    const wsA = (await call('GET', `/organizations/${ORG}/workspaces/set-a`)).body.data.id;
    const wsB = (await call('GET', `/organizations/${ORG}/workspaces/set-b`)).body.data.id;
    expect(await ids('workspaces')).toEqual([wsA, wsB].sort());
    expect(set.attributes.priority).toBe(true);

    // Removed from a workspace by hand: drift, converged.
    await call('DELETE', `/varsets/${set.id}/relationships/workspaces`, { data: [{ type: 'workspaces', id: wsB }] });
    r = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], env);
    expect(r.status).toBe(2);
    expect(r.stdout).toContain(wsB);
    r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], env);
    expect(r.status).toBe(0);
    expect(await ids('workspaces')).toEqual([wsA, wsB].sort());

    // One workspace and a project instead of two workspaces.
    dir = setApp(true);
    r = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], env);
    expect(r.status).toBe(0);
    const prj = (await call('GET', `/organizations/${ORG}/projects?filter[names]=set-prj`)).body.data[0].id;
    expect(await ids('workspaces')).toEqual([wsA]);
    expect(await ids('projects')).toEqual([prj]);

    const imported = { ...world.env, CONVERGE_DIR: path.join(world.dir, 'varsets-imported') };
    for (const [address, id] of [['set-a', `${ORG}/set-a`], ['set-b', `${ORG}/set-b`], ['set-prj', `${ORG}/set-prj`], ['set', set.id]]) {
      r = await cliAsync(['import', address, id, '--synth-dir', dir], imported);
      expect({ address, status: r.status, stderr: r.stderr }).toEqual({ address, status: 0, stderr: '' });
    }
    r = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], imported);
    expect(r.status).toBe(0);

    r = await cliAsync(['destroy', '--synth-dir', dir, '--auto-approve'], env);
    expect(r.status).toBe(0);
    expect((await call('GET', `/varsets/${set.id}`)).status).toBe(404);
  });
});
