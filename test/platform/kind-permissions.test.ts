import { dataSourceHandler, registeredKinds, resourceHandler } from '../../lib/core/engine/registry';
import { registerAllKinds } from '../../lib/kinds';
import { PlatformPermissions } from '../../lib/platform/shared/kind-permissions';
import { PLATFORM_KINDS } from '../../lib/platform/kinds';
import { PLATFORM_ORGANIZATION_PERMISSIONS, PLATFORM_PERMISSIONS } from '../../lib/platform/permissions';

registerAllKinds();

// A platform kind is self-contained (issue 36): what its token needs is declared by its handler, and `converge
// policy` and the preflight collect it from the kind's registration. A kind registered without it fails here.
const { resources, dataSources } = registeredKinds();
const platformResources = resources.filter((k) => k.startsWith('platform.'));
const platformDataSources = dataSources.filter((k) => k.startsWith('platform.'));
const permissionsOf = (h: unknown) => (h as { permissions?: PlatformPermissions }).permissions;
const sample = { organization: 'acme', name: 'n', id: 'acme/n', workspace: 'ws-1', workspaceId: 'ws-1', teamId: 'team-1' };

test('there are platform kinds to check', () => {
  expect(platformResources.length).toBeGreaterThan(10);
  expect(platformDataSources.length).toBeGreaterThan(2);
});

test.each(platformResources)('%s: its handler declares what the platform token needs', (kind) => {
  const p = permissionsOf(resourceHandler(kind));
  expect(typeof p?.needs).toBe('function');
  expect(p!.needs(sample)).toMatch(/\S/);
  expect(PLATFORM_PERMISSIONS[kind]).toBe(p!.needs);
  if (p!.lookup) expect(PLATFORM_PERMISSIONS[`lookup:${kind}`]).toBe(p!.lookup);
  if (p!.organization) expect(PLATFORM_ORGANIZATION_PERMISSIONS[kind]).toBe(p!.organization);
});

test.each(platformDataSources)('%s: its handler declares what the platform token needs', (kind) => {
  const p = permissionsOf(dataSourceHandler(kind));
  expect(typeof p?.needs).toBe('function');
  expect(p!.needs(sample)).toMatch(/\S/);
  expect(PLATFORM_PERMISSIONS[kind]).toBe(p!.needs);
});

test('the tables hold the registered kinds and nothing else', () => {
  const kinds = [...PLATFORM_KINDS.resources, ...PLATFORM_KINDS.dataSources].map((h) => h.kind).sort();
  expect(kinds).toEqual([...platformResources, ...platformDataSources].sort());
  expect(Object.keys(PLATFORM_PERMISSIONS).filter((k) => !kinds.includes(k.replace(/^lookup:/, '')))).toEqual([]);
});

test('a kind that writes in an organization names the permission the preflight asks', () => {
  // Variables and team access are per workspace: the organization's permissions do not tell them.
  const inOrganization = PLATFORM_KINDS.resources.filter((h) => h.schema?.fields.organization && h.kind !== 'platform.Organization');
  expect(inOrganization.filter((h) => !h.permissions.organization).map((h) => h.kind)).toEqual([]);
});
