import * as path from 'path';
import { Organization } from '../../../lib/platform/organization/organization';
import { Team } from '../../../lib/platform/team/team';
import {
  TeamAccess, TeamAccessLevel, TeamAccessPermissions, TeamAccessRunsPermission, TeamAccessStateVersionsPermission, TeamAccessVariablesPermission,
} from '../../../lib/platform/team/team-access';
import { Workspace } from '../../../lib/platform/workspace/workspace';
import { cliAsync, startWorld, synthApp, TestWorld } from '../../support/harness';

const ORG = 'e2e-custom-access';

// A team's custom access to a workspace (go-tfe's TeamAccess with access "custom" and its permissions), through the real CLI
// against the emulator: as tfe_team_access's `permissions` block, the permissions make the access custom.
describe('TeamAccess with custom permissions', () => {
  let world: TestWorld;
  const call = async (method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${world.env.PLATFORM_ADDRESS}/api/v2${p}`, {
      method, headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}`, 'content-type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const app = (grant: { access?: TeamAccessLevel; permissions?: TeamAccessPermissions }) => synthApp((s) => {
    const org = Organization.fromName(s, 'org', ORG);
    const ws = new Workspace(s, 'ws', { organization: org, name: 'custom-ws' });
    const ops = new Team(s, 'ops', { organization: org, name: 'ops' });
    new TeamAccess(s, 'ops-ws', { team: ops, workspace: ws, ...grant });
  }, 'custom');

  beforeAll(async () => {
    world = await startWorld();
    expect((await call('POST', '/organizations', { data: { type: 'organizations', attributes: { name: ORG, email: 'a@b.io' } } })).status).toBe(201);
  });
  afterAll(async () => { await world.stop(); });

  test('permissions apply as a custom access; drift converges; a fixed level and back change it in place; import; destroy', async () => {
    const env = { ...world.env, CONVERGE_DIR: path.join(world.dir, 'custom') };
    const custom = app({
      permissions: {
        runs: TeamAccessRunsPermission.APPLY, variables: TeamAccessVariablesPermission.READ,
        stateVersions: TeamAccessStateVersionsPermission.READ_OUTPUTS, workspaceLocking: true,
      },
    });
    let r = await cliAsync(['apply', '--synth-dir', custom, '--auto-approve'], env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const ws = (await call('GET', `/organizations/${ORG}/workspaces/custom-ws`)).body.data;
    const [access] = (await call('GET', `/team-workspaces?filter[workspace][id]=${ws.id}`)).body.data;
    const held = async () => (await call('GET', `/team-workspaces/${access.id}`)).body.data.attributes;
    expect(await held()).toEqual({
      access: 'custom', runs: 'apply', variables: 'read', 'state-versions': 'read-outputs', 'sentinel-mocks': 'none',
      'workspace-locking': true, 'run-tasks': false,
    });
    r = await cliAsync(['plan', '--synth-dir', custom, '--detailed-exitcode'], env);
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });

    // Changed by hand: drift on the one permission, converged back.
    expect((await call('PATCH', `/team-workspaces/${access.id}`, { data: { type: 'team-workspaces', attributes: { variables: 'write' } } })).status).toBe(200);
    r = await cliAsync(['plan', '--synth-dir', custom, '--detailed-exitcode'], env);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/\bvariables\b/);
    r = await cliAsync(['apply', '--synth-dir', custom, '--auto-approve'], env);
    expect(r.status).toBe(0);
    expect((await held()).variables).toBe('read');

    // A fixed level: in place (the same access), its implied permissions the server's, not compared.
    const fixed = app({ access: TeamAccessLevel.WRITE });
    r = await cliAsync(['apply', '--synth-dir', fixed, '--auto-approve'], env);
    expect(r.status).toBe(0);
    expect(await held()).toMatchObject({ access: 'write', runs: 'apply', variables: 'write', 'state-versions': 'write' });
    r = await cliAsync(['plan', '--synth-dir', fixed, '--detailed-exitcode'], env);
    expect(r.status).toBe(0);
    // And back to custom, with every permission at its default but one.
    const back = app({ access: TeamAccessLevel.CUSTOM, permissions: { runs: TeamAccessRunsPermission.PLAN } });
    r = await cliAsync(['apply', '--synth-dir', back, '--auto-approve'], env);
    expect(r.status).toBe(0);
    expect(await held()).toEqual({
      access: 'custom', runs: 'plan', variables: 'none', 'state-versions': 'none', 'sentinel-mocks': 'none', 'workspace-locking': false, 'run-tasks': false,
    });

    const imported = { ...world.env, CONVERGE_DIR: path.join(world.dir, 'custom-imported') };
    for (const [address, id] of [['ws', `${ORG}/custom-ws`], ['ops', `${ORG}/ops`], ['ops-ws', access.id]]) {
      r = await cliAsync(['import', address, id, '--synth-dir', back], imported);
      expect({ address, status: r.status, stderr: r.stderr }).toEqual({ address, status: 0, stderr: '' });
    }
    r = await cliAsync(['plan', '--synth-dir', back, '--detailed-exitcode'], imported);
    expect(r.status).toBe(0);

    r = await cliAsync(['destroy', '--synth-dir', back, '--auto-approve'], env);
    expect(r.status).toBe(0);
    expect((await call('GET', `/team-workspaces/${access.id}`)).status).toBe(404);
  });

  test('permissions with a fixed level, or neither, are refused naming the construct and the field', () => {
    expect(() => app({ access: TeamAccessLevel.READ, permissions: { runs: TeamAccessRunsPermission.APPLY } }))
      .toThrow(/ops-ws.*permissions.*custom/);
    expect(() => app({})).toThrow(/ops-ws.*access/);
  });
});
