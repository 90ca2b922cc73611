import { HandlerContext } from '../../../lib/core/engine/handler';
import { resourceHandler } from '../../../lib/core/engine/registry';
import { admin, handlerContext, PlatformFixture } from '../helpers';
import { registerAllKinds } from '../../../lib/kinds';
import { FakeClock } from '../../support/fake-clock';

registerAllKinds();

const modules = resourceHandler('platform.NoCodeModule');
const workspaces = resourceHandler('platform.NoCodeWorkspace');
// The emulator's upgrade steps and the handler's polls and timeout go by one clock that moves only
// when the client sleeps: no real time passes, and whether an upgrade finishes in time is fixed.
let clock: FakeClock;
let fx: PlatformFixture;
let ctx: HandlerContext;
let project: any;
let reg: any;

const prior = (id: string, s: Record<string, unknown>) => ({ id, spec: s, outputs: {} });
const modSpec = (over: Record<string, unknown> = {}) => ({
  organization: 'h-nc', moduleName: 'bucket', moduleProvider: 'aws', versionPin: '1.0.0', enabled: true,
  variableOptions: [{ variableName: 'size', variableType: 'string', options: ['s', 'l'] }], ...over,
});
const wsSpec = (noCodeModuleId: string, over: Record<string, unknown> = {}) => ({
  organization: 'h-nc', noCodeModuleId, projectId: project.id, name: 'bucket-prod', description: '', autoApply: false,
  variables: [
    { key: 'size', value: 's', category: 'engine', hcl: false, sensitive: false, description: '' },
    { key: 'TOKEN', value: 'secret-value', category: 'env', hcl: false, sensitive: true, description: '' },
  ],
  moduleVersion: '1.0.0', upgradeTimeout: '10s', upgradePollInterval: '1s', ...over,
});

beforeAll(async () => {
  clock = new FakeClock();
  fx = await PlatformFixture.start({ upgradeStepMs: 1000, clock });
  ctx = handlerContext(fx, undefined, undefined, clock);
  await fx.createOrg('h-nc');
  project = await admin(fx, 'POST', '/organizations/h-nc/projects', { name: 'apps' });
  reg = await admin(fx, 'POST', '/organizations/h-nc/registry-modules', { name: 'bucket', provider: 'aws', versions: ['1.0.0', '1.1.0'] });
});
afterAll(async () => {
  await ctx.http.close();
  await fx.stop();
});

test('NoCodeModule: create, read, find by registry module, options replaced by variable name, import, delete disables', async () => {
  expect((await modules.find!(ctx, modSpec()))[0]?.id).toBeUndefined();
  const w = await modules.create(ctx, modSpec());
  expect(w.id).toMatch(/^nocode-/);
  expect(w.outputs).toMatchObject({ versionPin: '1.0.0', registryModuleId: reg.id });
  expect((await modules.read(ctx, w.id, modSpec()))!.fields).toEqual(modSpec());
  expect((await modules.find!(ctx, modSpec()))[0]?.id).toBe(w.id);
  const before = (await fx.api('GET', `/no-code-modules/${w.id}`)).body.data.relationships['variable-options'].data[0].id;
  const changed = modSpec({ variableOptions: [
    { variableName: 'region', variableType: 'string', options: ['eu'] },
    { variableName: 'size', variableType: 'string', options: ['s', 'm', 'l'] },
  ] });
  await modules.update(ctx, w.id, changed, [], prior(w.id, modSpec()));
  expect((await modules.read(ctx, w.id, changed))!.fields).toEqual(changed);
  const opts = (await fx.api('GET', `/no-code-modules/${w.id}?include=variable_options`)).body.included;
  expect(opts.find((o: any) => o.attributes['variable-name'] === 'size').id).toBe(before);
  // Import by <organization>/<module>/<provider>: the module names are known from the id.
  expect(modules.importId!('h-nc/bucket/aws')).toBe('h-nc/bucket/aws');
  expect((await modules.read(ctx, 'h-nc/bucket/aws'))!.fields).toMatchObject({ moduleName: 'bucket', moduleProvider: 'aws', enabled: true });
  // A version left to the platform reads as unmanaged.
  expect((await modules.read(ctx, w.id, modSpec({ versionPin: null })))!.fields.versionPin).toBeNull();
  await modules.delete(ctx, w.id, prior(w.id, changed));
  expect((await modules.read(ctx, w.id))!.fields.enabled).toBe(false);
  // Enabled again by update (the planner adopts it through find).
  await modules.update(ctx, w.id, modSpec(), [], prior(w.id, modSpec()));
  expect((await modules.read(ctx, w.id, modSpec()))!.fields.enabled).toBe(true);
});

test('NoCodeModule: a module missing from the registry is a clear error', async () => {
  await expect(modules.create(ctx, modSpec({ moduleName: 'ghost' }))).rejects.toThrow(/ghost\/aws is not in the private registry/);
});

test('NoCodeWorkspace: create, read, find, the upgrade sequence on a version change, variables by upgrade, delete', async () => {
  const modId = (await modules.find!(ctx, modSpec()))[0].id;
  const desired = wsSpec(modId);
  const w = await workspaces.create(ctx, desired);
  expect(w.id).toMatch(/^ws-/);
  expect(w.outputs).toMatchObject({ moduleVersion: '1.0.0' });
  const { variables: _v, upgradeTimeout: _t, upgradePollInterval: _p, ...returned } = desired;
  expect((await workspaces.read(ctx, w.id, desired))!.fields).toEqual(returned);
  expect((await workspaces.find!(ctx, desired))[0]?.id).toBe(w.id);

  // The module's pin moves: the workspace reports an upgrade available and reads the old version.
  await modules.update(ctx, modId, modSpec({ versionPin: '1.1.0' }), [], prior(modId, modSpec()));
  const next = wsSpec(modId, { moduleVersion: '1.1.0' });
  expect((await workspaces.read(ctx, w.id, next))!.fields.moduleVersion).toBe('1.0.0');
  const up = await workspaces.update(ctx, w.id, next, [{ path: 'moduleVersion', before: '1.0.0', after: '1.1.0', sensitive: false, replace: false }], prior(w.id, desired));
  expect(up.outputs).toMatchObject({ moduleVersion: '1.1.0' });
  expect((await fx.api('GET', `/workspaces/${w.id}`)).body.data.attributes['no-code-upgrade-available']).toBe(false);

  // A variable change alone also goes through an upgrade run (planned, confirmed).
  const vars = wsSpec(modId, { moduleVersion: '1.1.0', variables: [{ key: 'size', value: 'l', category: 'engine', hcl: false, sensitive: false, description: '' }] });
  await workspaces.update(ctx, w.id, vars, [{ path: 'variables[0].value', before: 's', after: 'l', sensitive: false, replace: false }], prior(w.id, next));
  const runs = Object.values((fx.emulator.snapshot() as any).upgradeRuns).filter((r: any) => r.workspaceId === w.id);
  expect(runs).toHaveLength(2);
  expect(runs.every((r: any) => r.appliedAt !== undefined)).toBe(true);

  expect(workspaces.importId!('h-nc/bucket-prod')).toBe('h-nc/bucket-prod');
  expect((await workspaces.read(ctx, 'h-nc/bucket-prod'))!.fields).toMatchObject({ name: 'bucket-prod', moduleVersion: '1.1.0' });
  await workspaces.delete(ctx, w.id, prior(w.id, vars));
  expect(await workspaces.read(ctx, w.id)).toBeUndefined();
  await workspaces.delete(ctx, w.id, prior(w.id, vars));
});

test('NoCodeWorkspace: name, description and auto-apply change in place without an upgrade run', async () => {
  const modId = (await modules.find!(ctx, modSpec()))[0].id;
  const pinned = (await fx.api('GET', `/no-code-modules/${modId}`)).body.data.attributes['version-pin'];
  const desired = wsSpec(modId, { name: 'inplace', moduleVersion: pinned });
  const w = await workspaces.create(ctx, desired);
  expect(workspaces.replaceFields).toEqual(['organization', 'noCodeModuleId', 'projectId']);
  const changed = wsSpec(modId, { name: 'inplace-2', description: 'edited', autoApply: true, moduleVersion: pinned });
  const runsBefore = Object.keys((fx.emulator.snapshot() as any).upgradeRuns).length;
  const up = await workspaces.update(ctx, w.id, changed, [{ path: 'name', before: 'inplace', after: 'inplace-2', sensitive: false, replace: false }], prior(w.id, desired));
  expect(up.id).toBe(w.id);
  expect((await workspaces.read(ctx, w.id, changed))!.fields).toMatchObject({ name: 'inplace-2', description: 'edited', autoApply: true });
  expect(Object.keys((fx.emulator.snapshot() as any).upgradeRuns)).toHaveLength(runsBefore);
});

test('NoCodeWorkspace: an errored plan and a timeout fail the update clearly', async () => {
  const modId = (await modules.find!(ctx, modSpec()))[0].id;
  const desired = wsSpec(modId, { name: 'failing', moduleVersion: '1.1.0' });
  const w = await workspaces.create(ctx, desired);
  await admin(fx, 'POST', `/registry-modules/${reg.id}/versions`, { version: '2.0.0', failing: true });
  await modules.update(ctx, modId, modSpec({ versionPin: '2.0.0' }), [], prior(modId, modSpec()));
  const change = [{ path: 'moduleVersion', before: '1.1.0', after: '2.0.0', sensitive: false, replace: false }];
  await expect(workspaces.update(ctx, w.id, wsSpec(modId, { name: 'failing', moduleVersion: '2.0.0' }), change, prior(w.id, desired)))
    .rejects.toThrow(/^test\/construct: the upgrade plan of workspace .* ended errored/);
  // Steps of 2s: the plan would finish after 6s on the clock; the upgrade timeout is 5s.
  await admin(fx, 'PATCH', '/settings', { upgradeStepMs: 2000 });
  try {
    const start = clock.now();
    await expect(workspaces.update(ctx, w.id, wsSpec(modId, { name: 'failing', moduleVersion: '2.0.0', upgradeTimeout: '5s' }), change, prior(w.id, desired)))
      .rejects.toThrow(/^test\/construct: the upgrade plan of workspace .* did not finish within 5s \(run \S+ is planning: /);
    expect(clock.now() - start).toBeGreaterThanOrEqual(5000);
    expect(clock.now() - start).toBeLessThan(6000);
  } finally {
    await admin(fx, 'PATCH', '/settings', { upgradeStepMs: 1000 });
  }
  // A version the module does not pin: no upgrade is available, the update says so.
  await expect(workspaces.update(ctx, w.id, wsSpec(modId, { name: 'failing', moduleVersion: '9.9.9' }), change, prior(w.id, desired)))
    .rejects.toThrow(/the no-code module pins 2.0.0, not 9.9.9/);
});

test('an organization token is refused (404) on the no-code endpoints', async () => {
  const orgToken = await fx.seedToken('h-nc-org', 'organization', 'h-nc');
  const orgCtx = handlerContext(fx, orgToken, undefined, clock);
  try {
    const err = await modules.create(orgCtx, modSpec({ moduleName: 'bucket' })).catch((e) => e);
    expect(err.status).toBe(404);
  } finally {
    await orgCtx.http.close();
  }
});
