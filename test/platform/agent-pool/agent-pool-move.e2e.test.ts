import { Construct } from 'constructs';
import { AgentPool } from '../../../lib/platform/agent-pool/agent-pool';
import { cliAsync, startWorld, synthApp, TestWorld } from '../../support/harness';
import { IOrganization, Organization } from '../../../lib/platform/organization/organization';

/** The organization of that name (it exists outside the app), looked up once per stack. */
const orgNamed = (scope: Construct, name: string): IOrganization =>
  (scope.node.tryFindChild(`org-${name}`) as IOrganization | undefined) ?? Organization.fromName(scope, `org-${name}`, name);


// Through the real CLI against the emulator: an agent pool whose organization changes is replaced.
describe('AgentPool organization change', () => {
  let world: TestWorld;
  const pools = async (org: string): Promise<string[]> => {
    const res = await fetch(`${world.env.PLATFORM_ADDRESS}/api/v2/organizations/${org}/agent-pools`, {
      headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}` },
    });
    return (((await res.json()) as any).data as { attributes: { name: string } }[]).map((p) => p.attributes.name);
  };

  beforeAll(async () => {
    world = await startWorld();
    for (const name of ['move-a', 'move-b']) {
      const res = await fetch(`${world.env.PLATFORM_ADDRESS}/api/v2/organizations`, {
        method: 'POST', headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}`, 'content-type': 'application/vnd.api+json' },
        body: JSON.stringify({ data: { type: 'organizations', attributes: { name, email: `${name}@example.com` } } }),
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => { await world.stop(); });

  test('plan shows a replace naming the organization, apply moves the pool, refresh and plan are then quiet', async () => {
    const inA = synthApp((s) => { new AgentPool(s, 'pool', { organization: orgNamed(s, 'move-a'), name: 'onprem' }); }, 'pools');
    let r = await cliAsync(['apply', '--synth-dir', inA, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['refresh', '--synth-dir', inA], world.env);
    expect(r.stdout).toMatch(/0 gone, 0 drifted/);

    const inB = synthApp((s) => { new AgentPool(s, 'pool', { organization: orgNamed(s, 'move-b'), name: 'onprem' }); }, 'pools');
    r = await cliAsync(['plan', '--synth-dir', inB, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/pool \(platform\.AgentPool\) must be replaced \(organization cannot change in place\)/);
    expect(r.stdout).toMatch(/organization = "move-a" -> "move-b" \(forces replacement\)/);
    expect(r.stdout).not.toMatch(/Drift/);

    r = await cliAsync(['apply', '--synth-dir', inB, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    expect(await pools('move-b')).toEqual(['onprem']);
    expect(await pools('move-a')).toEqual([]);
    r = await cliAsync(['refresh', '--synth-dir', inB], world.env);
    expect(r.stdout).toMatch(/0 gone, 0 drifted/);
    r = await cliAsync(['plan', '--synth-dir', inB, '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);
  });
});
