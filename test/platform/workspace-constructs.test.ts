import { App, TerraformStack } from 'cdktf';
import { ConvergeTesting } from '../../lib/core/constructs/testing';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import {
  AgentPool, ExecutionMode, IProject, Organization, Project, Team, TeamAccess, TeamAccessLevel, Variable, VariableCategory, VariableSet, Workspace,
} from '../../lib/platform';

function stack(): TerraformStack {
  return new TerraformStack(new App(), 'test');
}
const acme = (s: TerraformStack) => (s.node.tryFindChild('acme') as Organization | undefined) ?? Organization.fromName(s, 'acme', 'acme');
const resources = (s: TerraformStack) => ConvergeTesting.desiredState(s).resources;

describe('Project', () => {
  test('renders name and description, the organization by reference', () => {
    const s = stack();
    new Project(s, 'apps', { organization: acme(s), name: 'my apps' });
    expect(resources(s).apps).toMatchObject({ kind: 'platform.Project', spec: { organization: 'acme', name: 'my apps', description: '' } });
  });

  test.each([['ab'], [' apps'], ['a'.repeat(41)], ['bad/name']])('a name the platform refuses (%s) is refused at synth, naming the field', (name) => {
    const s = stack();
    expect(() => new Project(s, 'p', { organization: acme(s), name })).toThrow(/p.*name/);
  });
});

describe('Workspace', () => {
  test('defaults; project and agent pool by reference (ids, and a dependency)', () => {
    const s = stack();
    new Workspace(s, 'plain', { organization: acme(s), name: 'plain' });
    expect(resources(s).plain.spec).toEqual({
      organization: 'acme', name: 'plain', description: '', projectId: null, executionMode: 'remote', agentPoolId: null,
      terraformVersion: null, workingDirectory: '', autoApply: false, tags: [],
    });
    const prj = new Project(s, 'prj', { organization: acme(s), name: 'apps' });
    const pool = new AgentPool(s, 'pool', { organization: acme(s), name: 'pool' });
    new Workspace(s, 'agent', { organization: acme(s), name: 'agent', project: prj, executionMode: ExecutionMode.AGENT, agentPool: pool, tags: ['b', 'a', 'a'] });
    const spec = resources(s).agent.spec;
    expect(spec.projectId).toEqual({ $ref: 'prj', attr: 'id' });
    expect(spec.agentPoolId).toEqual({ $ref: 'pool', attr: 'id' });
    expect(spec.tags).toEqual(['a', 'b']);
    const looked: IProject = Project.fromName(s, 'existing', acme(s), 'shared');
    new Workspace(s, 'inShared', { organization: acme(s), name: 'in-shared', project: looked });
    expect(resources(s).inShared.spec.projectId).toEqual({ $ref: 'existing', attr: 'id' });
  });

  test('an agent pool goes with the agent mode, and the agent mode needs one', () => {
    const s = stack();
    const pool = AgentPool.fromName(s, 'pool', acme(s), 'pool');
    expect(() => new Workspace(s, 'a', { organization: acme(s), name: 'a', executionMode: ExecutionMode.AGENT })).toThrow(/a.*agentPool.*required/);
    expect(() => new Workspace(s, 'b', { organization: acme(s), name: 'b', agentPool: pool })).toThrow(/b.*agentPool.*only/);
  });

  test.each([
    ['name', { name: 'bad name' }],
    ['tags', { tags: ['Upper'] }],
    ['terraformVersion', { terraformVersion: '~> 1.5' }],
    ['project', { project: 'prj-1' as any }],
  ])('bad %s is refused, naming the field', (field, props) => {
    const s = stack();
    expect(() => new Workspace(s, 'w', { organization: acme(s), name: 'w', ...props })).toThrow(new RegExp(`w.*${field}`));
  });
});

describe('Variable', () => {
  test('a plain value in clear; a sensitive value as its source only, and the variable sensitive', () => {
    const s = stack();
    const ws = Workspace.fromName(s, 'web', acme(s), 'web');
    new Variable(s, 'plain', { workspace: ws, key: 'region', value: 'eu' });
    new Variable(s, 'secret', { workspace: ws, key: 'TOKEN', category: VariableCategory.ENV, sensitiveValue: SecretValue.fromEnv('TOKEN') });
    expect(resources(s).plain.spec).toMatchObject({ workspace: { $ref: 'web', attr: 'id' }, key: 'region', value: 'eu', sensitive: false, category: 'engine', hcl: false });
    expect(resources(s).secret.spec).toMatchObject({ key: 'TOKEN', value: '', sensitive: true, category: 'env', sensitiveValue: { $secret: { env: 'TOKEN' } } });
  });

  test('validation', () => {
    const s = stack();
    const ws = Workspace.fromName(s, 'web', acme(s), 'web');
    expect(() => new Variable(s, 'both', { workspace: ws, key: 'k', value: 'v', sensitiveValue: SecretValue.fromEnv('X') })).toThrow(/both.*value/);
    expect(() => new Variable(s, 'hcl', { workspace: ws, key: 'k', hcl: true, category: VariableCategory.ENV })).toThrow(/hcl.*hcl/);
    expect(() => new Variable(s, 'key', { workspace: ws, key: 'bad key' })).toThrow(/key.*key/);
    expect(() => new Variable(s, 'ws', { workspace: 'ws-1' as any, key: 'k' })).toThrow(/ws.*workspace/);
  });
});

describe('Team and TeamAccess', () => {
  test('a team with its organization access (every key rendered, false unless granted); an access by reference', () => {
    const s = stack();
    const ops = new Team(s, 'ops', { organization: acme(s), name: 'ops', organizationAccess: { manageWorkspaces: true } });
    const spec = resources(s).ops.spec;
    expect(spec).toMatchObject({ organization: 'acme', name: 'ops', visibility: 'secret' });
    expect(spec.organizationAccess.manageWorkspaces).toBe(true);
    expect(Object.values(spec.organizationAccess).filter((v) => v === false)).toHaveLength(14);
    const web = Workspace.fromName(s, 'web', acme(s), 'web');
    new TeamAccess(s, 'ops-web', { team: ops, workspace: web, access: TeamAccessLevel.WRITE });
    expect(resources(s)['ops-web'].spec).toEqual({ teamId: { $ref: 'ops', attr: 'id' }, workspaceId: { $ref: 'web', attr: 'id' }, access: 'write' });
  });

  test('validation', () => {
    const s = stack();
    expect(() => new Team(s, 'bad', { organization: acme(s), name: 'bad name' })).toThrow(/bad.*name/);
    expect(() => new Team(s, 'vis', { organization: acme(s), name: 'v', visibility: 'public' as any })).toThrow(/vis.*visibility/);
    const web = Workspace.fromName(s, 'web', acme(s), 'web');
    expect(() => new TeamAccess(s, 'a', { team: 'team-1' as any, workspace: web, access: TeamAccessLevel.READ })).toThrow(/a.*team/);
    expect(() => new TeamAccess(s, 'b', { team: Team.fromName(s, 't', acme(s), 't'), workspace: web, access: 'owner' as any })).toThrow(/b.*access/);
  });
});

describe('VariableSet', () => {
  test('workspaces and projects by reference (ids, and dependencies)', () => {
    const s = stack();
    const prj = new Project(s, 'prj', { organization: acme(s), name: 'apps' });
    const ws = Workspace.fromName(s, 'web', acme(s), 'web');
    new VariableSet(s, 'set', { organization: acme(s), name: 'cloud creds', workspaces: [ws], projects: [prj] });
    expect(resources(s).set.spec).toEqual({
      organization: 'acme', name: 'cloud creds', description: '', global: false, priority: false,
      workspaces: [{ $ref: 'web', attr: 'id' }], projects: [{ $ref: 'prj', attr: 'id' }],
    });
  });

  test('a global set takes no workspaces; a workspace must be one', () => {
    const s = stack();
    const ws = Workspace.fromName(s, 'web', acme(s), 'web');
    expect(() => new VariableSet(s, 'g', { organization: acme(s), name: 'g', global: true, workspaces: [ws] })).toThrow(/g.*global/);
    expect(() => new VariableSet(s, 'w', { organization: acme(s), name: 'w', workspaces: ['ws-1' as any] })).toThrow(/w.*workspaces\[0\]/);
  });
});
