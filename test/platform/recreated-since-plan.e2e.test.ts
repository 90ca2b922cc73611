import * as path from 'path';
import { TerraformStack } from 'cdktf';
import { IOrganization, Organization } from '../../lib/platform/organization/organization';
import { Project } from '../../lib/platform/project/project';
import { Team, TeamVisibility } from '../../lib/platform/team/team';
import { Workspace } from '../../lib/platform/workspace/workspace';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

/**
 * Project, Workspace and Team: update and delete name the server id the plan read (issue 37: no second read by
 * name). An object deleted and made again under the same name between `plan --out` and `apply PLANFILE` is
 * another object: the update says the one the plan read is gone, the delete finds it gone, and neither touches
 * the new one. Through the real CLI against the emulator, the object re-created through the emulator's API.
 */
interface KindCase {
  /** The plural of the API's paths (`projects`), and the JSON:API type. */
  readonly type: string;
  /** The object's construct, with `changed` one mutable attribute changed. */
  readonly build: (s: TerraformStack, org: IOrganization, changed: boolean) => void;
  /** The create body's attributes, the construct's values before the change. */
  readonly attributes: Record<string, unknown>;
  /** The attribute the change sets, and its value before and after. */
  readonly field: string;
  readonly before: unknown;
  readonly after: unknown;
}

const CASES: Record<string, KindCase> = {
  project: {
    type: 'projects', field: 'description', before: 'one', after: 'two', attributes: { name: 'app', description: 'one' },
    build: (s, org, changed) => { new Project(s, 'obj', { organization: org, name: 'app', description: changed ? 'two' : 'one' }); },
  },
  workspace: {
    type: 'workspaces', field: 'description', before: 'one', after: 'two', attributes: { name: 'app', description: 'one' },
    build: (s, org, changed) => { new Workspace(s, 'obj', { organization: org, name: 'app', description: changed ? 'two' : 'one' }); },
  },
  team: {
    type: 'teams', field: 'visibility', before: 'secret', after: 'organization', attributes: { name: 'app', visibility: 'secret' },
    build: (s, org, changed) => {
      new Team(s, 'obj', { organization: org, name: 'app', visibility: changed ? TeamVisibility.ORGANIZATION : TeamVisibility.SECRET });
    },
  },
};

describe('an object deleted and made again under its name between plan and apply', () => {
  let world: TestWorld;
  const call = async (method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${world.env.PLATFORM_ADDRESS}/api/v2${p}`, {
      method, headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}`, 'content-type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  const env = () => ({ ...world.env, TMPDIR: process.env.TMPDIR });

  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  /** Applies the kind's object in an organization of its own; answers the app builder and the id converge made. */
  async function applied(kind: string, op: string): Promise<{ app: (changed: boolean) => string; firstId: string; org: string }> {
    const c = CASES[kind];
    const org = `rc-${kind}-${op}`;
    expect((await call('POST', '/organizations', { data: { type: 'organizations', attributes: { name: org, email: 'a@b.io' } } })).status).toBe(201);
    const app = (changed: boolean) => synthApp((s) => c.build(s, Organization.fromName(s, 'org', org), changed), `rc${kind}${op}`);
    const r = await cliAsync(['apply', '--synth-dir', app(false), '--auto-approve'], env());
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const listed = (await call('GET', `/organizations/${org}/${c.type}`)).body.data.filter((d: any) => d.attributes.name === 'app');
    expect(listed).toHaveLength(1);
    return { app, firstId: listed[0].id, org };
  }

  /** Deletes converge's object through the API and makes another of the same name; answers the new one's id. */
  async function recreate(kind: string, org: string, firstId: string): Promise<string> {
    const c = CASES[kind];
    expect((await call('DELETE', `/${c.type}/${firstId}`)).status).toBe(204);
    const made = await call('POST', `/organizations/${org}/${c.type}`, { data: { type: c.type, attributes: c.attributes } });
    expect(made.status).toBe(201);
    expect(made.body.data.id).not.toBe(firstId);
    return made.body.data.id;
  }

  test.each(Object.keys(CASES))('%s: the saved update fails saying the object the plan read is gone, and the new one is not changed', async (kind) => {
    const c = CASES[kind];
    const { app, firstId, org } = await applied(kind, 'upd');
    const planFile = path.join(world.dir, `${kind}-update.plan`);
    let r = await cliAsync(['plan', '--synth-dir', app(true), '--out', planFile], env());
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/will be updated/);
    const secondId = await recreate(kind, org, firstId);

    r = await cliAsync(['apply', planFile], env());
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`PATCH /api/v2/${c.type}/${firstId} failed with 404: .*\\(the ${kind} the plan read is gone: deleted outside converge since the plan`));
    const second = (await call('GET', `/${c.type}/${secondId}`)).body.data;
    expect(second.attributes[c.field]).toBe(c.before);
  });

  test.each(Object.keys(CASES))('%s: the saved destroy finds the object the plan read gone, and the new one stays', async (kind) => {
    const c = CASES[kind];
    const { app, firstId, org } = await applied(kind, 'del');
    const planFile = path.join(world.dir, `${kind}-destroy.plan`);
    let r = await cliAsync(['plan', '--destroy', '--synth-dir', app(false), '--out', planFile], env());
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/will be destroyed/);
    const secondId = await recreate(kind, org, firstId);

    r = await cliAsync(['apply', planFile], env());
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const second = await call('GET', `/${c.type}/${secondId}`);
    expect(second.status).toBe(200);
    expect(second.body.data.attributes.name).toBe('app');
  });
});
