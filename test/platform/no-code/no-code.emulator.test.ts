import { UPGRADE_COMPLETED } from '../../../lib/platform/no-code/no-code.emulator';
import { FakeClock } from '../../support/fake-clock';
import { admin, noCodeDoc, PlatformFixture, seedOrg, workspaceDoc } from '../helpers';

const STEP_MS = 40;
/** The emulator's time: upgrade runs move on only when a test moves it. */
const clock = new FakeClock();
let fx: PlatformFixture;
let seeded: { project: any; workspace: any; module: any };
beforeAll(async () => {
  fx = await PlatformFixture.start({ upgradeStepMs: STEP_MS, clock });
  seeded = await seedOrg(fx, 'nc');
});
afterAll(async () => { await fx.stop(); });

const sizeOpts = (id?: string, options: unknown[] = ['small', 'large']) =>
  ({ ...(id ? { id } : {}), type: 'variable-options', attributes: { 'variable-name': 'size', 'variable-type': 'string', options } });

/**
 * The statuses of an upgrade run read at the start of each step (the emulator's clock moved one
 * step between reads), until `final`; a status read mid-step is the step's own.
 */
async function statuses(path: string, final: string): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < 10; i++) {
    const s = (await fx.api('GET', path)).body.data.attributes.status;
    seen.push(s);
    if (s === final) return seen;
    clock.advance(STEP_MS - 1);
    expect((await fx.api('GET', path)).body.data.attributes.status).toBe(s);
    clock.advance(1);
  }
  throw new Error(`no final status: ${seen.join(',')}`);
}

test('enable answers 200 with the latest version pinned, disabled by default; variable options get ncvaropt- ids', async () => {
  const res = await fx.api('POST', '/organizations/nc/no-code-modules', noCodeDoc(seeded.module.id, {}, [sizeOpts()]));
  expect(res.status).toBe(200);
  const d = res.body.data;
  expect(d.id).toMatch(/^nocode-/);
  expect(d.attributes).toEqual({ enabled: false, 'version-pin': '1.1.0' });
  expect(d.relationships['registry-module'].data).toEqual({ id: seeded.module.id, type: 'registry-modules' });
  expect(d.relationships.organization.data).toEqual({ id: 'nc', type: 'organizations' });
  expect(d.relationships['variable-options'].data[0].id).toMatch(/^ncvaropt-/);
  expect(d.links.self).toBe(`/api/v2/no-code-modules/${d.id}`);
  // One no-code module per registry module.
  expect((await fx.api('POST', '/organizations/nc/no-code-modules', noCodeDoc(seeded.module.id))).status).toBe(422);
});

test('enable 422s and 404s', async () => {
  await fx.createOrg('nc2');
  const notReady = await admin(fx, 'POST', '/organizations/nc2/registry-modules', { name: 'nested', provider: 'aws', noCodeReady: false });
  const ok = await admin(fx, 'POST', '/organizations/nc2/registry-modules', { name: 'flat', provider: 'aws' });
  expect((await fx.api('POST', '/organizations/nc2/no-code-modules', noCodeDoc(notReady.id))).body.errors[0].detail).toMatch(/no-code design requirements/);
  expect((await fx.api('POST', '/organizations/nc2/no-code-modules', noCodeDoc('mod-none'))).status).toBe(422);
  expect((await fx.api('POST', '/organizations/nc2/no-code-modules', noCodeDoc(seeded.module.id))).status).toBe(422);
  expect((await fx.api('POST', '/organizations/nc2/no-code-modules', noCodeDoc(ok.id, { 'version-pin': '9.9.9' }))).status).toBe(422);
  expect((await fx.api('POST', '/organizations/nc2/no-code-modules', noCodeDoc(ok.id, { enabled: 'yes' }))).status).toBe(422);
  expect((await fx.api('POST', '/organizations/nc2/no-code-modules', noCodeDoc(ok.id, {}, [{ type: 'variable-options', attributes: {} }]))).status).toBe(422);
  expect((await fx.api('POST', '/organizations/none/no-code-modules', noCodeDoc(ok.id))).status).toBe(404);
});

test('state table: enable via PATCH, disable via PATCH (200); options replaced by id or created; read with include', async () => {
  await fx.createOrg('nc3');
  const mod = await admin(fx, 'POST', '/organizations/nc3/registry-modules', { name: 'db', provider: 'aws', versions: ['1.0.0', '2.0.0'] });
  const created = (await fx.api('POST', '/organizations/nc3/no-code-modules', noCodeDoc(mod.id, { 'version-pin': '1.0.0' }, [sizeOpts()]))).body.data;
  const optId = created.relationships['variable-options'].data[0].id;
  const enabled = await fx.api('PATCH', `/no-code-modules/${created.id}`, { data: { type: 'no-code-modules', attributes: { enabled: true } } });
  expect(enabled.status).toBe(200);
  expect(enabled.body.data.attributes).toEqual({ enabled: true, 'version-pin': '1.0.0' });
  expect(enabled.body.data.relationships['variable-options'].data).toEqual([{ id: optId, type: 'variable-options' }]);
  const replaced = await fx.api('PATCH', `/no-code-modules/${created.id}`, {
    data: {
      type: 'no-code-modules', attributes: { 'version-pin': '2.0.0' },
      relationships: { 'variable-options': { data: [sizeOpts(optId, ['tiny']), { type: 'variable-options', attributes: { 'variable-name': 'region', 'variable-type': 'string', options: ['eu'] } }] } },
    },
  });
  expect(replaced.status).toBe(200);
  const ids = replaced.body.data.relationships['variable-options'].data.map((o: any) => o.id);
  expect(ids[0]).toBe(optId);
  expect(ids[1]).toMatch(/^ncvaropt-/);
  expect(ids[1]).not.toBe(optId);
  expect(replaced.body.data.attributes['version-pin']).toBe('2.0.0');
  for (const include of ['variable_options', 'variable-options']) {
    const read = await fx.api('GET', `/no-code-modules/${created.id}?include=${include}`);
    expect(read.status).toBe(200);
    expect(read.body.included).toEqual([
      { id: optId, type: 'variable-options', attributes: { 'variable-name': 'size', 'variable-type': 'string', options: ['tiny'] },
        relationships: { 'no-code-allowed-module': { data: { id: created.id, type: 'no-code-allowed-modules' } } } },
      expect.objectContaining({ id: ids[1], attributes: { 'variable-name': 'region', 'variable-type': 'string', options: ['eu'] } }),
    ]);
  }
  expect((await fx.api('GET', `/no-code-modules/${created.id}?include=registry_module`)).status).toBe(400);
  expect((await fx.api('GET', `/no-code-modules/${created.id}`)).body.included).toBeUndefined();
  const disabled = await fx.api('PATCH', `/no-code-modules/${created.id}`, { data: { type: 'no-code-modules', attributes: { enabled: false } } });
  expect(disabled.status).toBe(200);
  expect(disabled.body.data.attributes.enabled).toBe(false);
  expect((await fx.api('PATCH', `/no-code-modules/${created.id}`, noCodeDoc(mod.id, {}, [sizeOpts('ncvaropt-other')]))).status).toBe(422);
  expect((await fx.api('PATCH', `/no-code-modules/${created.id}`, { data: { type: 'no-code-modules', attributes: { 'version-pin': '3.0.0' } } })).status).toBe(422);
  expect((await fx.api('GET', '/no-code-modules/nocode-none')).status).toBe(404);
  expect((await fx.api('PATCH', '/no-code-modules/nocode-none', { data: { type: 'no-code-modules' } })).status).toBe(404);
});

describe('workspaces and upgrades', () => {
  let modId: string;
  let regId: string;
  beforeAll(async () => {
    await fx.createOrg('ncw');
    const project = await admin(fx, 'POST', '/organizations/ncw/projects', { name: 'p' });
    const reg = await admin(fx, 'POST', '/organizations/ncw/registry-modules', { name: 'bucket', provider: 'aws', versions: ['1.0.0'] });
    regId = reg.id;
    modId = (await fx.api('POST', '/organizations/ncw/no-code-modules', noCodeDoc(reg.id, { enabled: true }, [sizeOpts()]))).body.data.id;
    (seeded as any).ncwProject = project.id;
  });
  const project = () => (seeded as any).ncwProject as string;

  test('create workspace 200 from the module with vars; options enforced; name rules', async () => {
    const res = await fx.api('POST', `/no-code-modules/${modId}/workspaces`, workspaceDoc('bucket-prod', project(), [
      { key: 'size', value: 'large' }, { key: 'TOKEN', value: 'very-secret', category: 'env', sensitive: true },
    ]));
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.id).toMatch(/^ws-/);
    expect(d.attributes).toMatchObject({
      name: 'bucket-prod', source: 'platform-module', 'source-module-id': 'private/ncw/bucket/aws/1.0.0', 'no-code-upgrade-available': false,
      description: '', 'auto-apply': false,
    });
    expect(d.relationships['no-code-module-version'].data.id).toMatch(/^nocodever-/);
    expect(d.relationships.project.data).toEqual({ id: project(), type: 'projects' });
    expect(JSON.stringify(res.body)).not.toContain('very-secret');
    expect((await fx.api('POST', `/no-code-modules/${modId}/workspaces`, workspaceDoc('bucket-prod', project()))).status).toBe(422);
    expect((await fx.api('POST', `/no-code-modules/${modId}/workspaces`, workspaceDoc('x y', project()))).status).toBe(422);
    expect((await fx.api('POST', `/no-code-modules/${modId}/workspaces`, workspaceDoc('other', 'prj-none'))).status).toBe(422);
    const notAllowed = await fx.api('POST', `/no-code-modules/${modId}/workspaces`, workspaceDoc('other', project(), [{ key: 'size', value: 'huge' }]));
    expect(notAllowed.status).toBe(422);
    expect(notAllowed.body.errors[0].detail).toMatch(/not one of the allowed options/);
    expect((await fx.api('GET', `/workspaces/${d.id}`)).body.data.attributes.name).toBe('bucket-prod');
  });

  test('upgrade: statuses move over time to planned; confirm before that is 409; confirm answers plain text; workspace moves on', async () => {
    const ws = (await fx.api('POST', `/no-code-modules/${modId}/workspaces`, workspaceDoc('upg', project(), [{ key: 'size', value: 'small' }]))).body.data;
    await admin(fx, 'POST', `/registry-modules/${regId}/versions`, { version: '1.1.0' });
    await fx.api('PATCH', `/no-code-modules/${modId}`, { data: { type: 'no-code-modules', attributes: { 'version-pin': '1.1.0' } } });
    expect((await fx.api('GET', `/workspaces/${ws.id}`)).body.data.attributes['no-code-upgrade-available']).toBe(true);
    const up = await fx.api('POST', `/no-code-modules/${modId}/workspaces/${ws.id}/upgrade`, workspaceDoc('upg', project(), [{ key: 'size', value: 'large' }]));
    expect(up.status).toBe(200);
    expect(up.body.data).toMatchObject({ type: 'workspace-upgrade', attributes: { status: 'pending' }, relationships: { workspace: { data: { id: ws.id, type: 'workspaces' } } } });
    const runId = up.body.data.id;
    expect(runId).toMatch(/^run-/);
    expect(up.body.data.attributes['plan-url']).toContain(runId);
    const early = await fx.api('POST', `/no-code-modules/${modId}/workspaces/${ws.id}/upgrade/${runId}`);
    expect(early.status).toBe(409);
    expect(await statuses(`/no-code-modules/${modId}/workspaces/${ws.id}/upgrade/${runId}`, 'planned'))
      .toEqual(['pending', 'fetching', 'planning', 'planned']);
    clock.advance(10 * STEP_MS);
    expect((await fx.api('GET', `/no-code-modules/${modId}/workspaces/${ws.id}/upgrade/${runId}`)).body.data.attributes.status).toBe('planned');
    const done = await fx.api('POST', `/no-code-modules/${modId}/workspaces/${ws.id}/upgrade/${runId}`);
    expect(done.status).toBe(200);
    expect(done.headers['content-type']).toMatch(/^text\/plain/);
    expect(done.body).toBe(UPGRADE_COMPLETED);
    const after = (await fx.api('GET', `/workspaces/${ws.id}`)).body.data;
    expect(after.attributes).toMatchObject({ 'no-code-upgrade-available': false, 'source-module-id': 'private/ncw/bucket/aws/1.1.0' });
    expect(after.relationships['no-code-module-version'].data.id).not.toBe(ws.relationships['no-code-module-version'].data.id);
    expect((await fx.api('GET', `/no-code-modules/${modId}/workspaces/${ws.id}/upgrade/${runId}`)).body.data.attributes.status).toBe('applied');
    expect((await fx.api('POST', `/no-code-modules/${modId}/workspaces/${ws.id}/upgrade/${runId}`)).status).toBe(409);
    expect((await fx.api('GET', `/no-code-modules/${modId}/workspaces/${ws.id}/upgrade/run-none`)).status).toBe(404);
  });

  test('upgrade without changes ends planned_and_finished; a failing version ends errored; cost estimation adds cost_estimated', async () => {
    const ws = (await fx.api('POST', `/no-code-modules/${modId}/workspaces`, workspaceDoc('same', project(), [{ key: 'size', value: 'small' }]))).body.data;
    const base = `/no-code-modules/${modId}/workspaces/${ws.id}/upgrade`;
    const same = (await fx.api('POST', base, workspaceDoc('same', project(), [{ key: 'size', value: 'small' }]))).body.data.id;
    expect(await statuses(`${base}/${same}`, 'planned_and_finished')).toEqual(['pending', 'fetching', 'planning', 'planned_and_finished']);
    await fx.api('PATCH', '/organizations/ncw', { data: { type: 'organizations', attributes: { 'cost-estimation-enabled': true } } });
    const changed = (await fx.api('POST', base, workspaceDoc('same', project(), [{ key: 'size', value: 'large' }]))).body.data.id;
    expect(await statuses(`${base}/${changed}`, 'cost_estimated')).toEqual(['pending', 'fetching', 'planning', 'planned', 'cost_estimated']);
    await admin(fx, 'POST', `/registry-modules/${regId}/versions`, { version: '1.2.0', failing: true });
    await fx.api('PATCH', `/no-code-modules/${modId}`, { data: { type: 'no-code-modules', attributes: { 'version-pin': '1.2.0' } } });
    const failing = (await fx.api('POST', base, workspaceDoc('same', project()))).body.data.id;
    expect(await statuses(`${base}/${failing}`, 'errored')).toEqual(['pending', 'fetching', 'planning', 'errored']);
    expect((await fx.api('POST', `${base}/${failing}`)).status).toBe(409);
  });

  test('organization tokens are refused on every no-code endpoint (404); user and team tokens work', async () => {
    const orgToken = await fx.seedToken('nc-org', 'organization', 'ncw');
    const teamToken = (await fx.call('POST', '/__admin/tokens', { user: 'nc-org', kind: 'team', organization: 'ncw', permissions: ['manage-modules', 'create-workspaces'] })).body.token;
    expect((await fx.api('GET', `/no-code-modules/${modId}`, undefined, orgToken)).status).toBe(404);
    expect((await fx.api('GET', `/no-code-modules/${modId}`, undefined, teamToken)).status).toBe(200);
    expect((await fx.api('POST', '/organizations/ncw/no-code-modules', noCodeDoc(regId), orgToken)).status).toBe(404);
    expect((await fx.api('PATCH', `/no-code-modules/${modId}`, { data: { type: 'no-code-modules' } }, orgToken)).status).toBe(404);
    expect((await fx.api('POST', `/no-code-modules/${modId}/workspaces`, workspaceDoc('by-org', project()), orgToken)).status).toBe(404);
    expect((await fx.api('POST', `/no-code-modules/${modId}/workspaces`, workspaceDoc('by-team', project()), teamToken)).status).toBe(200);
    const reader = await fx.seedToken('nc-reader', 'team', 'ncw');
    expect((await fx.api('POST', `/no-code-modules/${modId}/workspaces`, workspaceDoc('by-reader', project()), reader)).status).toBe(404);
  });

  test('a disabled module refuses workspace creation (422); without the private-module-registry entitlement 404', async () => {
    await fx.createOrg('ncd');
    const p = await admin(fx, 'POST', '/organizations/ncd/projects', { name: 'p' });
    const reg = await admin(fx, 'POST', '/organizations/ncd/registry-modules', { name: 'm', provider: 'aws' });
    const id = (await fx.api('POST', '/organizations/ncd/no-code-modules', noCodeDoc(reg.id))).body.data.id;
    const res = await fx.api('POST', `/no-code-modules/${id}/workspaces`, workspaceDoc('w', p.id));
    expect(res.status).toBe(422);
    expect(res.body.errors[0].detail).toBe('no-code provisioning is not enabled for this module');
    await admin(fx, 'PATCH', '/organizations/ncd/entitlement-set', { 'private-module-registry': false });
    expect((await fx.api('GET', `/no-code-modules/${id}`)).status).toBe(404);
  });
});

test('workspace extras: read by name, update name/description/auto-apply, delete', async () => {
  const { project, module } = await seedOrg(fx, 'ncx');
  const mod = (await fx.api('POST', '/organizations/ncx/no-code-modules', noCodeDoc(module.id, { enabled: true }))).body.data;
  const ws = (await fx.api('POST', `/no-code-modules/${mod.id}/workspaces`, workspaceDoc('one', project.id))).body.data;
  expect((await fx.api('GET', '/organizations/ncx/workspaces/one')).body.data.id).toBe(ws.id);
  const upd = await fx.api('PATCH', `/workspaces/${ws.id}`, { data: { type: 'workspaces', attributes: { name: 'two', description: 'd', 'auto-apply': true } } });
  expect(upd.status).toBe(200);
  expect(upd.body.data.attributes).toMatchObject({ name: 'two', description: 'd', 'auto-apply': true });
  expect((await fx.api('PATCH', `/workspaces/${ws.id}`, { data: { type: 'workspaces', attributes: { name: 'web' } } })).status).toBe(422);
  expect((await fx.api('PATCH', '/workspaces/ws-none', { data: { type: 'workspaces', attributes: {} } })).status).toBe(404);
  expect((await fx.api('GET', '/organizations/ncx/workspaces/one')).status).toBe(404);
  expect((await fx.api('DELETE', `/workspaces/${ws.id}`)).status).toBe(204);
  expect((await fx.api('DELETE', `/workspaces/${ws.id}`)).status).toBe(404);
});
