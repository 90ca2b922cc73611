import { App, TerraformStack } from 'cdktf';
import { ConvergeTesting } from '../../../lib/core/constructs/testing';
import { RemovalPolicy } from '../../../lib/core/constructs/removal-policy';
import { CollaboratorAuthPolicy, ExecutionMode, Organization, OrganizationEntitlements, PlatformProvider } from '../../../lib/platform';
import { ORGANIZATION } from '../../../lib/platform/organization/organization.schema';
import { camelCase } from '../../../lib/platform/client/jsonapi';
import { ORGANIZATION_BODY } from '../spec-tables';
import { defaultOf } from '../../support/spec-tables';

function stack(): TerraformStack {
  return new TerraformStack(new App(), 'test');
}

describe('Organization', () => {
  test('renders every create/update attribute with the spec default; retained by default', () => {
    const s = stack();
    new Organization(s, 'org', { name: 'acme', email: 'ops@acme.io' });
    const r = ConvergeTesting.desiredState(s).resources.org;
    expect(r.kind).toBe('platform.Organization');
    expect(r.removalPolicy).toBe('retain');
    expect(r.provider).toMatchObject({ api: 'platform', addressEnv: 'PLATFORM_ADDRESS', tokenEnv: 'PLATFORM_TOKEN' });
    expect(Object.keys(r.spec).sort()).toEqual(ORGANIZATION_BODY.map((b) => camelCase(b.name)).sort());
    expect(Object.keys(r.spec).sort()).toEqual(Object.keys(ORGANIZATION.fields).sort());
    for (const b of ORGANIZATION_BODY) {
      const d = defaultOf(b.default);
      if (d !== undefined) expect([b.name, r.spec[camelCase(b.name)]]).toEqual([b.name, d]);
    }
    expect(r.spec).toMatchObject({ name: 'acme', email: 'ops@acme.io', ownersTeamSamlRoleId: null, defaultAgentPoolId: null });
  });

  test('given props, a provider and a removal policy', () => {
    const s = stack();
    const provider = new PlatformProvider(s, 'p', { address: 'http://127.0.0.1:1', tokenEnv: 'MY_TOKEN' });
    const org = new Organization(s, 'org', {
      name: 'acme_2', email: 'a@b.io', sessionTimeout: 60, sessionRemember: 120,
      collaboratorAuthPolicy: CollaboratorAuthPolicy.TWO_FACTOR_MANDATORY, costEstimationEnabled: true,
      aggregatedCommitStatusEnabled: false, sendPassingStatusesForUntriggeredSpeculativePlans: true,
      ownersTeamSamlRoleId: 'owners', assessmentsEnforced: true, allowForceDeleteWorkspaces: true,
      defaultExecutionMode: ExecutionMode.AGENT, defaultAgentPoolId: 'apool-123', provider, removalPolicy: RemovalPolicy.DESTROY,
    });
    expect(org.name).toBe('acme_2');
    const r = ConvergeTesting.desiredState(s).resources.org;
    expect(r.removalPolicy).toBe('destroy');
    expect(r.provider).toMatchObject({ address: 'http://127.0.0.1:1', tokenEnv: 'MY_TOKEN' });
    expect(r.spec).toEqual({
      name: 'acme_2', email: 'a@b.io', sessionTimeout: 60, sessionRemember: 120, collaboratorAuthPolicy: 'two_factor_mandatory',
      costEstimationEnabled: true, sendPassingStatusesForUntriggeredSpeculativePlans: true, aggregatedCommitStatusEnabled: false,
      ownersTeamSamlRoleId: 'owners', assessmentsEnforced: true, allowForceDeleteWorkspaces: true,
      defaultExecutionMode: 'agent', defaultAgentPoolId: 'apool-123',
    });
  });

  test('a reference to the external id renders as a reference and adds a dependency', () => {
    const s = stack();
    const org = new Organization(s, 'org', { name: 'acme', email: 'a@b.io' });
    new OrganizationEntitlements(s, 'ents', { organization: org });
    const ents = ConvergeTesting.desiredState(s).resources.ents;
    expect(ents).toMatchObject({ kind: 'platform.OrganizationEntitlements', dataSource: true, spec: { organization: 'acme' }, dependsOn: ['org'] });
    // A typed attribute: a string token, rendered as a reference where another construct uses it.
    expect(typeof org.externalId).toBe('string');
    new Organization(s, 'other', { name: 'other', email: 'a@b.io', ownersTeamSamlRoleId: org.externalId });
    expect(ConvergeTesting.desiredState(s).resources.other.spec.ownersTeamSamlRoleId).toEqual({ $ref: 'org', attr: 'externalId' });
    expect(ConvergeTesting.desiredState(s).resources.other.dependsOn).toContain('org');
  });

  test('a reference combined with other text is refused, naming the field', () => {
    const s = stack();
    const org = new Organization(s, 'org', { name: 'acme', email: 'a@b.io' });
    new Organization(s, 'other', { name: 'other', email: 'a@b.io', ownersTeamSamlRoleId: `x-${org.externalId}` });
    expect(() => ConvergeTesting.desiredState(s)).toThrow(/other: ownersTeamSamlRoleId combines a reference/);
  });

  test.each([
    [{ name: 'on prem', email: 'a@b.io' }, /test\/bad: name "on prem" may contain only letters, numbers, '-' and '_'/],
    [{ name: 'ok', email: 'nope' }, /test\/bad: email "nope" is not an email address/],
    [{ name: 'ok', email: 'a@b.io', sessionTimeout: 0 }, /sessionTimeout must be an integer from 1/],
    [{ name: 'ok', email: 'a@b.io', sessionRemember: 1.5 }, /sessionRemember must be an integer/],
    [{ name: 'ok', email: 'a@b.io', defaultExecutionMode: ExecutionMode.AGENT }, /defaultAgentPoolId is required when defaultExecutionMode is "agent"/],
    [{ name: 'ok', email: 'a@b.io', defaultAgentPoolId: 'apool-1' }, /defaultAgentPoolId must not be given when defaultExecutionMode is "remote"/],
    [{ name: 'ok', email: 'a@b.io', defaultExecutionMode: ExecutionMode.LOCAL, defaultAgentPoolId: 'apool-1' }, /must not be given when defaultExecutionMode is "local"/],
    [{ name: 'ok', email: 'a@b.io', sendPassingStatusesForUntriggeredSpeculativePlans: true }, /sendPassingStatusesForUntriggeredSpeculativePlans cannot be true while aggregatedCommitStatusEnabled is true/],
    [{ name: 'ok', email: 'a@b.io', collaboratorAuthPolicy: 'sms' as any }, /collaboratorAuthPolicy "sms" must be one of/],
    [{ name: 'ok', email: 'a@b.io', defaultExecutionMode: 'cloud' as any }, /defaultExecutionMode "cloud" must be one of/],
  ])('validation names path, field and rule: %j', (props, message) => {
    expect(() => new Organization(stack(), 'bad', props as any)).toThrow(message);
  });

  test('OrganizationEntitlements validates the organization name', () => {
    const s = stack();
    expect(() => new OrganizationEntitlements(s, 'e', { organization: Organization.fromName(s, 'bad', 'a b') })).toThrow(/test\/e: organization "a b" may contain only/);
  });
});
