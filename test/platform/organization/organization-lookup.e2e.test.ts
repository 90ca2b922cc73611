import { RemovalPolicy } from '../../../lib/core/constructs/removal-policy';
import { TerraformOutput } from 'cdktf';
import { PlatformState } from '../../../lib/platform/emulator/state';
import { Organization } from '../../../lib/platform/organization/organization';
import { cliAsync, startWorld, synthApp, TestWorld } from '../../support/harness';

// `Organization.fromName` reads an existing organization at plan time, through the real CLI against
// the emulator: its attributes feed other constructs; an absent one fails the plan, naming the construct.
describe('Organization.fromName', () => {
  let world: TestWorld;
  const orgs = () => Object.values((world.emulator.apis.platform.snapshot() as PlatformState).organizations);
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => world?.stop());

  test('an existing organization: read at plan time, referenced, never changed nor deleted', async () => {
    const setup = synthApp((stack) => { new Organization(stack, 'made', { name: 'lookup-me', email: 'a@b.io' }); }, 'setup');
    expect((await cliAsync(['apply', '--synth-dir', setup, '--auto-approve'], world.env)).status).toBe(0);
    const dir = synthApp((stack) => {
      const org = Organization.fromName(stack, 'existing', 'lookup-me');
      // A managed object fed by the lookup's attribute (known only once read).
      new Organization(stack, 'other', {
        name: 'fed-by-lookup', email: 'a@b.io', ownersTeamSamlRoleId: org.organizationExternalId, removalPolicy: RemovalPolicy.DESTROY,
      });
      new TerraformOutput(stack, 'unused', { value: org.organizationName });
    }, 'consumer');
    const apply = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(apply.stderr).toBe('');
    expect(apply.status).toBe(0);
    const external = orgs().find((o) => o.name === 'lookup-me')?.externalId;
    expect(external).toMatch(/^org-/);
    expect(orgs().find((o) => o.name === 'fed-by-lookup')?.attributes['owners-team-saml-role-id']).toBe(external);
    const destroy = await cliAsync(['destroy', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(destroy.status).toBe(0);
    expect(orgs().map((o) => o.name)).toEqual(['lookup-me']);
  });

  test('an absent organization fails the plan, naming the construct and the name', async () => {
    const dir = synthApp((stack) => { Organization.fromName(stack, 'missing', 'no-such-org'); }, 'absent');
    const plan = await cliAsync(['plan', '--synth-dir', dir], world.env);
    expect(plan.status).toBe(1);
    expect(plan.stderr).toMatch(/missing: platform\.Organization "no-such-org" does not exist/);
  });
});
