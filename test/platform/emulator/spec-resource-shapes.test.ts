import {
  AGENT, AGENT_POOL, MODULE_PRODUCER, NO_CODE_ENABLE_BODY, NO_CODE_MODULE, NO_CODE_WORKSPACE, NO_CODE_WORKSPACE_BODY, OAUTH_CLIENT,
  OAUTH_CLIENT_CREATE_BODY, SERVICE_PROVIDERS_SPEC, STATE_TABLE, UPGRADE_STATUSES, VARIABLE_OPTIONS, WORKSPACE_UPGRADE,
} from '../spec-resources';
import { AGENT_STATUSES, DELETABLE_STATUSES } from '../../../lib/platform/agent-pool/agent-pool.emulator';
import { SERVICE_PROVIDERS } from '../../../lib/platform/oauth-client/oauth-client.emulator';
import { upgradeSteps } from '../../../lib/platform/no-code/no-code.emulator';
import { matchesType } from '../spec-tables';
import { admin, noCodeDoc, oauthClientDoc, PlatformFixture, seedOrg, workspaceDoc } from '../helpers';

let fx: PlatformFixture;
let seeded: { project: any; workspace: any; module: any };
beforeAll(async () => {
  fx = await PlatformFixture.start({ edition: 'self-hosted', upgradeStepMs: 0 });
  seeded = await seedOrg(fx, 'shape');
});
afterAll(async () => { await fx.stop(); });

/** Every attribute of a table present with its type, and nothing else. */
function expectAttributes(attributes: Record<string, unknown>, rows: { name: string; type: string }[]): void {
  expect(Object.keys(attributes).sort()).toEqual(rows.map((r) => r.name).sort());
  for (const r of rows) expect([r.name, matchesType(attributes[r.name], r.type)]).toEqual([r.name, true]);
}

test('the spec excerpt was read', () => {
  expect(OAUTH_CLIENT.attributes).toHaveLength(11);
  expect(NO_CODE_WORKSPACE.attributes).toHaveLength(41);
  expect(STATE_TABLE).toHaveLength(6);
  // The spec's anonymised ids, and the real ones they stand for (issue 33).
  expect(Object.keys(SERVICE_PROVIDERS).sort()).toEqual([...SERVICE_PROVIDERS_SPEC, 'github', 'github_enterprise', 'gitlab_hosted',
    'gitlab_community_edition', 'gitlab_enterprise_edition', 'ado_server'].sort());
  expect([...AGENT_STATUSES].sort()).toEqual([...AGENT.statuses].sort());
  expect(OAUTH_CLIENT_CREATE_BODY.length + NO_CODE_ENABLE_BODY.length + NO_CODE_WORKSPACE_BODY.length).toBe(12 + 9 + 13);
});

test('OAuth client: attributes, relationships, links; request-only attributes absent; include names', async () => {
  const c = await fx.api('POST', '/organizations/shape/oauth-clients', oauthClientDoc({ secret: 's', 'rsa-public-key': 'pk' }, [seeded.project.id]));
  const shown = await fx.api('GET', `/oauth-clients/${c.body.data.id}?include=${OAUTH_CLIENT.includes.join(',')}`);
  const listed = await fx.api('GET', '/organizations/shape/oauth-clients');
  for (const d of [c.body.data, shown.body.data, listed.body.data[0]]) {
    expectAttributes(d.attributes, OAUTH_CLIENT.attributes);
    expect(Object.keys(d.relationships).sort()).toEqual([...OAUTH_CLIENT.relationships].sort());
    for (const k of OAUTH_CLIENT.requestOnly) expect(d.attributes).not.toHaveProperty(k);
    expect(d.links.self).toBe(`/api/v2/oauth-clients/${d.id}`);
  }
  expect(shown.body.included.map((i: any) => i.type).sort()).toEqual(['oauth-tokens', 'projects']);
  // Every key of the create body is accepted (the request-only ones included).
  for (const row of OAUTH_CLIENT_CREATE_BODY) {
    const attr = row.key.replace('data.attributes.', '');
    if (row.key.startsWith('data.attributes.')) expect([...OAUTH_CLIENT.attributes.map((r) => r.name), ...OAUTH_CLIENT.requestOnly, 'oauth-token-string']).toContain(attr);
  }
});

test('agent pool and agent: attributes, relationships, links', async () => {
  const pool = (await fx.api('POST', '/organizations/shape/agent-pools', { data: { type: 'agent-pools', attributes: { name: 'p' } } })).body.data;
  await admin(fx, 'POST', `/agent-pools/${pool.id}/agents`, { name: null });
  const docs = [pool, (await fx.api('GET', `/agent-pools/${pool.id}?include=${AGENT_POOL.includes[0]}`)).body.data,
    (await fx.api('GET', '/organizations/shape/agent-pools')).body.data[0]];
  for (const d of docs) {
    expectAttributes(d.attributes, AGENT_POOL.attributes);
    expect(Object.keys(d.relationships).sort()).toEqual([...AGENT_POOL.relationships].sort());
    expect(d.links.self).toBe(`/api/v2/agent-pools/${pool.id}`);
  }
  const agents = (await fx.api('GET', `/agent-pools/${pool.id}/agents`)).body.data;
  expectAttributes(agents[0].attributes, AGENT.attributes);
  expect(agents[0].links.self).toBe(`/api/v2/agents/${agents[0].id}`);
});

test('no-code module, variable options, workspace and workspace upgrade', async () => {
  const mod = (await fx.api('POST', '/organizations/shape/no-code-modules', noCodeDoc(seeded.module.id, { enabled: true }, [
    { type: 'variable-options', attributes: { 'variable-name': 'size', 'variable-type': 'string', options: ['s'] } },
  ]))).body.data;
  expect(Object.keys(mod.attributes).sort()).toEqual([...NO_CODE_MODULE.attributes].sort());
  expect(Object.keys(mod.relationships).sort()).toEqual([...NO_CODE_MODULE.relationships].sort());
  const read = await fx.api('GET', `/no-code-modules/${mod.id}?include=variable_options`);
  expect(Object.keys(read.body.included[0].attributes).sort()).toEqual([...VARIABLE_OPTIONS.attributes].sort());
  expect(Object.keys(read.body.included[0].relationships)).toEqual(VARIABLE_OPTIONS.includedRelationship);
  const ws = (await fx.api('POST', `/no-code-modules/${mod.id}/workspaces`, workspaceDoc('shaped', seeded.project.id, [{ key: 'size', value: 's' }]))).body.data;
  expect(Object.keys(ws.attributes).sort()).toEqual([...NO_CODE_WORKSPACE.attributes].sort());
  expect(Object.keys(ws.attributes.permissions).sort()).toEqual([...NO_CODE_WORKSPACE.permissions].sort());
  expect(Object.keys(ws.relationships).sort()).toEqual([...NO_CODE_WORKSPACE.relationships].sort());
  expect(Object.keys(ws.attributes['setting-overwrites']).sort()).toEqual(['agent-pool', 'execution-mode']);
  expect(Object.keys(ws.attributes.actions)).toEqual(['is-destroyable']);
  expect(Object.keys(ws.links).sort()).toEqual(['self', 'self-html']);
  const up = (await fx.api('POST', `/no-code-modules/${mod.id}/workspaces/${ws.id}/upgrade`, workspaceDoc('shaped', seeded.project.id))).body.data;
  expect(Object.keys(up.attributes).sort()).toEqual([...WORKSPACE_UPGRADE.attributes].sort());
  expect(Object.keys(up.relationships)).toEqual(WORKSPACE_UPGRADE.relationships);
});

test('module producer documents carry the listed attributes and links.self', async () => {
  await fx.createOrg('shape-producer');
  await admin(fx, 'POST', '/organizations/shape/module-producers', { producer: 'shape-producer' });
  const d = (await fx.api('GET', '/organizations/shape/relationships/module-producers')).body.data[0];
  expect(Object.keys(d.attributes).sort()).toEqual(MODULE_PRODUCER.attributes.filter((a) => a !== 'links').sort());
  expect(Object.keys(d.links)).toEqual(['self']);
});

test('upgrade statuses: every status of the spec is reachable', () => {
  const base = { id: 'run-x', workspaceId: 'ws-x', noCodeModuleId: 'nocode-x', startedAt: 0, targetVersion: '1', vars: [] };
  const reachable = new Set([
    ...upgradeSteps({ ...base, outcome: 'changes', costEstimation: true }),
    ...upgradeSteps({ ...base, outcome: 'none', costEstimation: false }),
  ]);
  for (const s of UPGRADE_STATUSES) expect([s, reachable.has(s)]).toEqual([s, true]);
});

test('the agent rows of the state table match the deletable statuses', () => {
  const removable = STATE_TABLE.find((r) => r.also === '204' && r.movedBy === 'DELETE agent')!;
  for (const s of DELETABLE_STATUSES) expect(removable.state).toContain(s);
  expect(STATE_TABLE.find((r) => r.also === '412')!.state).toBe('agent with any other status');
});

describe('body tables: every default the spec gives is applied when the key is left out', () => {
  const valueOf = (text: string): unknown => (text === 'empty string' ? '' : text === '[]' ? [] : text === 'true' ? true : text === 'false' ? false : text);

  test('OAuth client create', async () => {
    const d = (await fx.api('POST', '/organizations/shape/oauth-clients', oauthClientDoc())).body.data;
    for (const row of OAUTH_CLIENT_CREATE_BODY.filter((r) => r.default !== '')) {
      if (row.key.startsWith('data.attributes.')) {
        const name = row.key.replace('data.attributes.', '');
        expect([name, d.attributes[name]]).toEqual([name, row.default === 'null' ? null : valueOf(row.default)]);
      } else {
        expect([row.key, d.relationships.projects.data]).toEqual([row.key, valueOf(row.default)]);
      }
    }
  });

  test('no-code enable and workspace creation', async () => {
    await fx.createOrg('shape-defaults');
    const project = await admin(fx, 'POST', '/organizations/shape-defaults/projects', { name: 'p' });
    const reg = await admin(fx, 'POST', '/organizations/shape-defaults/registry-modules', { name: 'm', provider: 'aws', versions: ['0.9.0', '1.10.0', '1.9.0'] });
    const mod = (await fx.api('POST', '/organizations/shape-defaults/no-code-modules', noCodeDoc(reg.id))).body.data;
    for (const row of NO_CODE_ENABLE_BODY.filter((r) => r.default !== '')) {
      const name = row.key.replace('data.attributes.', '');
      const want = row.default === 'latest module version' ? '1.10.0' : valueOf(row.default);
      expect([name, mod.attributes[name]]).toEqual([name, want]);
    }
    await fx.api('PATCH', `/no-code-modules/${mod.id}`, { data: { type: 'no-code-modules', attributes: { enabled: true } } });
    const ws = (await fx.api('POST', `/no-code-modules/${mod.id}/workspaces`, {
      data: { type: 'workspaces', attributes: { name: 'defaults' }, relationships: {
        project: { data: { id: project.id, type: 'project' } }, vars: { data: [{ type: 'vars', attributes: { key: 'a', category: 'engine' } }] },
      } },
    })).body.data;
    const stored = (fx.emulator.snapshot() as any).workspaces[ws.id];
    for (const row of NO_CODE_WORKSPACE_BODY.filter((r) => r.default !== '')) {
      const name = row.key.split('.').pop()!;
      const actual = row.key.includes('.vars.') ? stored.vars[0][name] : name === 'auto_apply' ? ws.attributes['auto-apply'] : ws.attributes[name];
      expect([row.key, actual]).toEqual([row.key, valueOf(row.default)]);
    }
  });
});
