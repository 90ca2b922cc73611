import { ENTITLEMENT_BOOLEANS_SPEC, ENTITLEMENT_LIMITS_SPEC, matchesType, ORGANIZATION_BODY, ORGANIZATION_TABLE, PERMISSION_KEYS_SPEC } from '../spec-tables';
import { defaultOf } from '../../support/spec-tables';
import { orgDoc, PlatformFixture } from '../helpers';

const HOSTED_ONLY = ORGANIZATION_TABLE.filter((r) => r.notes.includes('hosted edition only')).map((r) => r.name);

describe.each(['hosted', 'self-hosted'] as const)('documents of the %s edition follow the spec tables', (edition) => {
  let fx: PlatformFixture;
  beforeAll(async () => { fx = await PlatformFixture.start({ edition }); });
  afterAll(async () => { await fx.stop(); });

  test('the spec excerpt was read', () => {
    expect(ORGANIZATION_TABLE.length).toBeGreaterThan(20);
    expect(HOSTED_ONLY.sort()).toEqual(['assessments-enforced', 'two-factor-conformant']);
    expect(ORGANIZATION_BODY.length).toBe(13);
  });

  test('organization: every attribute of the table with its type; hosted-only attributes only on hosted', async () => {
    const created = await fx.createOrg('shape');
    for (const d of [created.data, (await fx.api('GET', '/organizations/shape')).body.data,
      (await fx.api('GET', '/organizations')).body.data[0]]) {
      const expected = ORGANIZATION_TABLE.map((r) => r.name).filter((n) => edition === 'hosted' || !HOSTED_ONLY.includes(n));
      expect(Object.keys(d.attributes).sort()).toEqual(expected.sort());
      for (const row of ORGANIZATION_TABLE) {
        if (!(row.name in d.attributes)) continue;
        expect([row.name, matchesType(d.attributes[row.name], row.type)]).toEqual([row.name, true]);
      }
      expect(Object.keys(d.attributes.permissions).sort()).toEqual([...PERMISSION_KEYS_SPEC].sort());
    }
  });

  test('create applies every default of the body table', async () => {
    const d = (await fx.createOrg('defaults')).data;
    for (const row of ORGANIZATION_BODY) {
      const v = defaultOf(row.default);
      if (v === undefined || !(row.name in d.attributes)) continue;
      expect([row.name, d.attributes[row.name]]).toEqual([row.name, v]);
    }
    expect(d.attributes['owners-team-saml-role-id']).toBeNull();
    expect(d.relationships['default-agent-pool'].data).toBeNull();
  });

  test('entitlement set: every boolean and integer-or-null attribute', async () => {
    await fx.createOrg('ents');
    const d = (await fx.api('GET', '/organizations/ents/entitlement-set')).body.data;
    expect(Object.keys(d.attributes).sort()).toEqual([...ENTITLEMENT_BOOLEANS_SPEC, ...ENTITLEMENT_LIMITS_SPEC].sort());
    for (const k of ENTITLEMENT_BOOLEANS_SPEC) expect(typeof d.attributes[k]).toBe('boolean');
    for (const k of ENTITLEMENT_LIMITS_SPEC) expect(d.attributes[k] === null || Number.isInteger(d.attributes[k])).toBe(true);
  });

  test('send-passing-statuses: accepted on hosted, always false on self-hosted', async () => {
    const res = await fx.api('POST', '/organizations', orgDoc({
      name: 'passing', email: 'p@x.io', 'send-passing-statuses-for-untriggered-speculative-plans': true,
      'aggregated-commit-status-enabled': false,
    }));
    expect(res.status).toBe(201);
    expect(res.body.data.attributes['send-passing-statuses-for-untriggered-speculative-plans']).toBe(edition === 'hosted');
    const upd = await fx.api('PATCH', '/organizations/passing', orgDoc({ 'send-passing-statuses-for-untriggered-speculative-plans': true }));
    expect(upd.body.data.attributes['send-passing-statuses-for-untriggered-speculative-plans']).toBe(edition === 'hosted');
  });
});
