import { ENTITLEMENT_BOOLEANS, ENTITLEMENT_LIMITS, PERMISSION_KEYS } from '../../../lib/platform/organization/organization.emulator';
import { ADMIN_TOKEN, orgDoc, PlatformFixture } from '../helpers';

/** Every attribute of the spec's organization table (the hosted-only ones listed apart). */
const ORG_ATTRIBUTES = [
  'external-id', 'created-at', 'email', 'session-timeout', 'session-remember', 'collaborator-auth-policy', 'plan-expired',
  'plan-expires-at', 'plan-is-trial', 'plan-is-enterprise', 'plan-identifier', 'cost-estimation-enabled',
  'send-passing-statuses-for-untriggered-speculative-plans', 'aggregated-commit-status-enabled',
  'allow-force-delete-workspaces', 'name', 'permissions', 'fair-run-queuing-enabled', 'saml-enabled',
  'owners-team-saml-role-id', 'default-execution-mode',
];
const HOSTED_ONLY = ['two-factor-conformant', 'assessments-enforced'];

let fx: PlatformFixture;
beforeAll(async () => { fx = await PlatformFixture.start(); });
afterAll(async () => { await fx.stop(); });

describe('create', () => {
  test('201 with every attribute, its defaults, relationships, links and the included entitlement set', async () => {
    const res = await fx.api('POST', '/organizations', orgDoc({ name: 'acme', email: 'ops@acme.io' }));
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toContain('application/vnd.api+json');
    const d = res.body.data;
    expect(d.id).toBe('acme');
    expect(d.type).toBe('organizations');
    expect(Object.keys(d.attributes).sort()).toEqual([...ORG_ATTRIBUTES, ...HOSTED_ONLY].sort());
    expect(d.attributes).toMatchObject({
      name: 'acme', email: 'ops@acme.io', 'session-timeout': 20160, 'session-remember': 20160,
      'collaborator-auth-policy': 'password', 'cost-estimation-enabled': false,
      'send-passing-statuses-for-untriggered-speculative-plans': false, 'aggregated-commit-status-enabled': true,
      'owners-team-saml-role-id': null, 'assessments-enforced': false, 'allow-force-delete-workspaces': false,
      'default-execution-mode': 'remote', 'plan-expires-at': null,
    });
    expect(d.attributes['external-id']).toMatch(/^org-/);
    expect(Number.isNaN(Date.parse(d.attributes['created-at']))).toBe(false);
    expect(Object.keys(d.attributes.permissions).sort()).toEqual([...PERMISSION_KEYS].sort());
    for (const v of Object.values(d.attributes.permissions)) expect(typeof v).toBe('boolean');
    expect(Object.keys(d.relationships).sort()).toEqual(
      ['authentication-token', 'default-agent-pool', 'entitlement-set', 'oauth-tokens', 'subscription']);
    expect(d.relationships['default-agent-pool']).toEqual({ data: null });
    expect(d.relationships['entitlement-set'].data).toEqual({ id: d.attributes['external-id'], type: 'entitlement-sets' });
    expect(d.relationships['entitlement-set'].links.related).toBe('/api/v2/organizations/acme/entitlement-set');
    expect(d.relationships['oauth-tokens'].links.related).toBe('/api/v2/organizations/acme/oauth-tokens');
    expect(d.links.self).toBe('/api/v2/organizations/acme');
    expect(res.body.included).toHaveLength(1);
    expect(res.body.included[0]).toMatchObject({ id: d.attributes['external-id'], type: 'entitlement-sets' });
  });

  test('given attributes are kept', async () => {
    const res = await fx.api('POST', '/organizations', orgDoc({
      name: 'given_1', email: 'a@b.io', 'session-timeout': 60, 'session-remember': 120,
      'collaborator-auth-policy': 'two_factor_mandatory', 'cost-estimation-enabled': true,
      'aggregated-commit-status-enabled': false, 'send-passing-statuses-for-untriggered-speculative-plans': true,
      'owners-team-saml-role-id': 'owners', 'assessments-enforced': true, 'allow-force-delete-workspaces': true,
      'default-execution-mode': 'local',
    }));
    expect(res.status).toBe(201);
    expect(res.body.data.attributes).toMatchObject({
      'session-timeout': 60, 'session-remember': 120, 'collaborator-auth-policy': 'two_factor_mandatory',
      'cost-estimation-enabled': true, 'aggregated-commit-status-enabled': false,
      'send-passing-statuses-for-untriggered-speculative-plans': true, 'owners-team-saml-role-id': 'owners',
      'assessments-enforced': true, 'allow-force-delete-workspaces': true, 'default-execution-mode': 'local',
    });
  });

  test.each([
    ['name missing', { email: 'a@b.io' }, /Name can't be blank/],
    ['email missing', { name: 'noemail' }, /Email can't be blank/],
    ['name format', { name: 'bad name', email: 'a@b.io' }, /letters, numbers/],
    ['name format (dot)', { name: 'bad.name', email: 'a@b.io' }, /letters, numbers/],
    ['email shape', { name: 'bademail', email: 'nope' }, /Email is invalid/],
    ['integer type', { name: 't1', email: 'a@b.io', 'session-timeout': 'long' }, /session-timeout must be/],
    ['boolean type', { name: 't2', email: 'a@b.io', 'cost-estimation-enabled': 'yes' }, /cost-estimation-enabled must be a boolean/],
    ['auth policy enum', { name: 't3', email: 'a@b.io', 'collaborator-auth-policy': 'sms' }, /collaborator-auth-policy/],
    ['execution mode enum', { name: 't4', email: 'a@b.io', 'default-execution-mode': 'cloud' }, /default-execution-mode/],
    ['aggregated with send-passing', { name: 't5', email: 'a@b.io', 'send-passing-statuses-for-untriggered-speculative-plans': true }, /cannot be true while/],
    ['agent mode without pool', { name: 't6', email: 'a@b.io', 'default-execution-mode': 'agent' }, /required when default-execution-mode is "agent"/],
    ['pool with remote mode', { name: 't7', email: 'a@b.io', 'default-agent-pool-id': 'apool-x' }, /must not be given/],
    ['pool with local mode', { name: 't8', email: 'a@b.io', 'default-execution-mode': 'local', 'default-agent-pool-id': 'apool-x' }, /must not be given/],
  ])('422 on %s, error document with string status', async (_what, attrs, detail) => {
    const res = await fx.api('POST', '/organizations', orgDoc(attrs));
    expect(res.status).toBe(422);
    expect(res.body.errors.length).toBeGreaterThan(0);
    for (const e of res.body.errors) {
      expect(e.status).toBe('422');
      expect(typeof e.title).toBe('string');
    }
    expect(res.body.errors.map((e: any) => e.detail).join('\n')).toMatch(detail);
  });

  test('422 on a taken name, on a wrong data.type and on a body that is not JSON:API', async () => {
    await fx.createOrg('taken');
    expect((await fx.api('POST', '/organizations', orgDoc({ name: 'taken', email: 'x@y.io' }))).body.errors[0].detail)
      .toBe('Name has already been taken');
    expect((await fx.api('POST', '/organizations', { data: { type: 'teams', attributes: { name: 'z', email: 'a@b.io' } } })).status).toBe(422);
    expect((await fx.api('POST', '/organizations', { name: 'z' })).status).toBe(422);
  });
});

describe('show, update, destroy', () => {
  test('show 200 and 404', async () => {
    await fx.createOrg('showme');
    const res = await fx.api('GET', '/organizations/showme');
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe('showme');
    const missing = await fx.api('GET', '/organizations/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].status).toBe('404');
  });

  test('update changes attributes and keeps the others', async () => {
    await fx.createOrg('upd', { 'session-timeout': 30 });
    const res = await fx.api('PATCH', '/organizations/upd', orgDoc({ email: 'new@upd.io', 'cost-estimation-enabled': true }));
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ email: 'new@upd.io', 'cost-estimation-enabled': true, 'session-timeout': 30 });
    expect((await fx.api('PATCH', '/organizations/upd', orgDoc({ 'session-timeout': -1 }))).status).toBe(422);
    expect((await fx.api('PATCH', '/organizations/missing', orgDoc({ email: 'a@b.io' }))).status).toBe(404);
  });

  test('update checks the send-passing rule against stored values', async () => {
    await fx.createOrg('sp');
    const res = await fx.api('PATCH', '/organizations/sp', orgDoc({ 'send-passing-statuses-for-untriggered-speculative-plans': true }));
    expect(res.status).toBe(422);
    const ok = await fx.api('PATCH', '/organizations/sp', orgDoc({
      'send-passing-statuses-for-untriggered-speculative-plans': true, 'aggregated-commit-status-enabled': false,
    }));
    expect(ok.status).toBe(200);
  });

  test('rename: PATCH to the old name changes the id; the old name is gone; external id kept', async () => {
    const created = await fx.createOrg('oldname');
    const res = await fx.api('PATCH', '/organizations/oldname', orgDoc({ name: 'newname' }));
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe('newname');
    expect(res.body.data.links.self).toBe('/api/v2/organizations/newname');
    expect(res.body.data.attributes['external-id']).toBe(created.data.attributes['external-id']);
    expect((await fx.api('GET', '/organizations/oldname')).status).toBe(404);
    expect((await fx.api('GET', '/organizations/newname')).status).toBe(200);
    await fx.createOrg('other');
    expect((await fx.api('PATCH', '/organizations/newname', orgDoc({ name: 'other' }))).status).toBe(422);
  });

  test('destroy 204 with an empty body, then 404', async () => {
    await fx.createOrg('gone');
    const res = await fx.api('DELETE', '/organizations/gone');
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await fx.api('GET', '/organizations/gone')).status).toBe(404);
    expect((await fx.api('DELETE', '/organizations/gone')).status).toBe(404);
  });
});

describe('default execution mode and agent pools', () => {
  test('agent mode needs a pool of the organization; switching away clears it', async () => {
    await fx.createOrg('agented');
    await fx.createOrg('stranger');
    const pool = (await fx.call('POST', '/__admin/organizations/agented/agent-pools', { name: 'onprem' })).body;
    const foreign = (await fx.call('POST', '/__admin/organizations/stranger/agent-pools', { name: 'theirs' })).body;
    expect(pool.id).toMatch(/^apool-/);
    const bad = await fx.api('PATCH', '/organizations/agented', orgDoc({ 'default-execution-mode': 'agent', 'default-agent-pool-id': foreign.id }));
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].detail).toMatch(/not an agent pool of this organization/);
    const ok = await fx.api('PATCH', '/organizations/agented', orgDoc({ 'default-execution-mode': 'agent', 'default-agent-pool-id': pool.id }));
    expect(ok.status).toBe(200);
    expect(ok.body.data.relationships['default-agent-pool'].data).toEqual({ id: pool.id, type: 'agent-pools' });
    // The pool id defaults to the previous value while the mode stays agent.
    const kept = await fx.api('PATCH', '/organizations/agented', orgDoc({ email: 'x@agented.io' }));
    expect(kept.body.data.relationships['default-agent-pool'].data.id).toBe(pool.id);
    const remote = await fx.api('PATCH', '/organizations/agented', orgDoc({ 'default-execution-mode': 'remote' }));
    expect(remote.status).toBe(200);
    expect(remote.body.data.relationships['default-agent-pool'].data).toBeNull();
  });
});

describe('entitlement set', () => {
  test('id is the external id, every attribute of the table with its type', async () => {
    const created = await fx.createOrg('ent');
    const res = await fx.api('GET', '/organizations/ent/entitlement-set');
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.type).toBe('entitlement-sets');
    expect(d.id).toBe(created.data.attributes['external-id']);
    expect(d.links.self).toBe(`/api/v2/entitlement-sets/${d.id}`);
    expect(Object.keys(d.attributes).sort()).toEqual([...ENTITLEMENT_BOOLEANS, ...ENTITLEMENT_LIMITS].sort());
    for (const k of ENTITLEMENT_BOOLEANS) expect(typeof d.attributes[k]).toBe('boolean');
    for (const k of ENTITLEMENT_LIMITS) expect(d.attributes[k] === null || Number.isInteger(d.attributes[k])).toBe(true);
    expect(created.included[0]).toEqual(d);
  });

  test('set by the admin interface; 404 for an unknown organization', async () => {
    await fx.createOrg('ent2');
    const set = await fx.call('PATCH', '/__admin/organizations/ent2/entitlement-set', { agents: false, 'user-limit': 5 });
    expect(set.status).toBe(200);
    const res = await fx.api('GET', '/organizations/ent2/entitlement-set');
    expect(res.body.data.attributes).toMatchObject({ agents: false, 'user-limit': 5 });
    expect((await fx.call('PATCH', '/__admin/organizations/ent2/entitlement-set', { bogus: true })).status).toBe(422);
    expect((await fx.api('GET', '/organizations/nope/entitlement-set')).status).toBe(404);
  });
});

describe('authentication and access', () => {
  test('401 without a token or with an unknown one, as a JSON:API error document', async () => {
    for (const token of [null, 'not-a-token']) {
      const res = await fx.api('GET', '/organizations', undefined, token);
      expect(res.status).toBe(401);
      expect(res.body.errors[0].status).toBe('401');
    }
  });

  test('a valid token without access gets 404 on every organization endpoint, and sees none in the list', async () => {
    await fx.createOrg('private');
    const other = await fx.seedToken('outsider');
    for (const [method, path, body] of [
      ['GET', '/organizations/private', undefined],
      ['PATCH', '/organizations/private', orgDoc({ email: 'x@y.io' })],
      ['DELETE', '/organizations/private', undefined],
      ['GET', '/organizations/private/entitlement-set', undefined],
    ] as const) {
      expect((await fx.api(method, path, body, other)).status).toBe(404);
    }
    expect((await fx.api('GET', '/organizations', undefined, other)).body.data).toEqual([]);
    // Not allowed to create organizations either: 404 (not found or unauthorized).
    expect((await fx.api('POST', '/organizations', orgDoc({ name: 'mine', email: 'a@b.io' }), other)).status).toBe(404);
  });

  test('owners, organization tokens and team tokens', async () => {
    await fx.createOrg('shared');
    const owner = await fx.seedToken('co-owner');
    await fx.call('POST', '/__admin/organizations/shared/owners', { user: 'co-owner' });
    expect((await fx.api('PATCH', '/organizations/shared', orgDoc({ email: 'o@shared.io' }), owner)).status).toBe(200);
    const orgToken = await fx.seedToken('shared-bot', 'organization', 'shared');
    expect((await fx.api('GET', '/organizations/shared', undefined, orgToken)).status).toBe(200);
    const team = await fx.seedToken('shared-team', 'team', 'shared');
    const asTeam = await fx.api('GET', '/organizations/shared', undefined, team);
    expect(asTeam.status).toBe(200);
    expect(asTeam.body.data.attributes.permissions['can-update']).toBe(false);
    expect((await fx.api('PATCH', '/organizations/shared', orgDoc({ email: 't@shared.io' }), team)).status).toBe(404);
    expect((await fx.api('GET', '/organizations/private', undefined, orgToken)).status).toBe(404);
  });

  test('the admin interface needs the administrator token and lists its endpoints', async () => {
    expect((await fx.call('GET', '/__admin/', undefined, 'wrong')).status).toBe(401);
    const res = await fx.call('GET', '/__admin/', undefined, ADMIN_TOKEN);
    expect(res.status).toBe(200);
    expect(res.body.endpoints.map((e: any) => e.path)).toContain('/__admin/tokens');
  });
});
