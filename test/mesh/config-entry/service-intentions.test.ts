import { App, TerraformStack } from 'cdktf';
import { ConvergeTesting } from '../../../lib/core/constructs/testing';
import { PlanHookItem } from '../../../lib/core/engine/registry';
import * as mesh from '../../../lib/mesh';
import { decodeEntry, ServiceIntentionsEntry } from '../../../lib/mesh/compiler/entries';
import { meshAclPolicy, MESH_PERMISSIONS } from '../../../lib/mesh/permissions';
import { decide, intentionsDiff } from '../../../lib/mesh/traffic/intentions-diff';

const stack = () => new TerraformStack(new App(), 'prod');
const resources = (s: TerraformStack) => ConvergeTesting.desiredState(s).resources;
const { ALLOW, DENY } = mesh.IntentionAction;

test('spec: sources ranked as the mesh ranks them (exact names before *), server-filled fields left out', () => {
  const s = stack();
  const i = new mesh.ServiceIntentions(s, 'api', {
    name: 'api',
    sources: [{ name: '*', action: DENY }, { name: 'web', permissions: [{ action: ALLOW, http: { pathPrefix: '/v1', methods: ['GET'] } }] }],
  });
  expect(i.entryId).toBe('service-intentions/api');
  expect(resources(s).api.spec).toEqual({
    name: 'api', namespace: 'default', meta: {},
    sources: [
      {
        name: 'web', action: '', description: '',
        permissions: [{ action: 'allow', http: { pathExact: '', pathPrefix: '/v1', pathRegex: '', methods: ['GET'], header: [] } }],
      },
      { name: '*', action: 'deny', description: '', permissions: [] },
    ],
  });
  // Ordered after the ServiceDefaults of its service (L7 permissions need its protocol first).
  const d = new mesh.ServiceDefaults(s, 'api-defaults', { name: 'api', protocol: mesh.MeshProtocol.HTTP });
  resources(s);
  expect(i.node.dependencies).toContain(d);
});

test.each([
  [[], /sources.*At least one source is required/],
  [[{ name: 'web' }], /sources.*Sources\[0\]\.Action must be set to 'allow' or 'deny'/],
  [[{ name: 'we*b', action: ALLOW }], /Sources\[0\]\.Name: wildcard character '\*' cannot be used with partial values/],
  [[{ name: 'web', action: ALLOW }, { name: 'web', action: DENY }], /Sources\[1\] defines "web" more than once/],
  [[{ name: 'web', action: ALLOW, permissions: [{ action: ALLOW, http: { pathPrefix: '/a' } }] }], /Sources\[0\]\.Action must be omitted if Permissions are specified/],
  // (the mesh words an empty `HTTP` "should not be empty"; converge's decoding drops empty objects, as for every entry kind)
  [[{ name: 'web', permissions: [{ action: ALLOW, http: {} }] }], /Sources\[0\]\.Permissions\[0\]\.HTTP is required/],
  [[{ name: 'web', permissions: [{ action: ALLOW, http: { pathRegex: '' } }] }], /Sources\[0\]\.Permissions\[0\]\.HTTP is required/],
  [[{ name: 'web', permissions: [{ action: ALLOW, http: { pathPrefix: 'v1' } }] }], /PathPrefix doesn't start with '\/': "v1"/],
  [[{ name: 'web', permissions: [{ action: ALLOW, http: { pathPrefix: '/a', pathRegex: '/b' } }] }], /at most one of PathExact, PathPrefix, or PathRegex/],
  [[{ name: 'web', permissions: [{ action: ALLOW, http: { methods: ['GET', 'GET'] } }] }], /Methods contains "GET" more than once/],
  [[{ name: 'web', permissions: [{ action: ALLOW, http: { header: [{ name: 'x' }] } }] }], /Header\[0\] should only contain one of Present, Exact, Prefix, Suffix, or Regex/],
] as [mesh.IntentionSource[], RegExp][])('refused as the mesh refuses it, naming the construct and field: %j', (sources, message) => {
  expect(() => new mesh.ServiceIntentions(stack(), 'api', { name: 'api', sources })).toThrow(message);
  expect(() => new mesh.ServiceIntentions(stack(), 'api', { name: 'api', sources })).toThrow(/prod\/api/);
});

const entry = (name: string, sources: unknown[]) => decodeEntry({ Kind: 'service-intentions', Name: name, Sources: sources }) as ServiceIntentionsEntry;

test('decide: the highest-ranked matching source decides (exact before *, an exact destination before *)', () => {
  const entries = [
    entry('api', [{ Name: '*', Action: 'deny' }]),
    entry('*', [{ Name: 'web', Action: 'allow' }, { Name: '*', Action: 'allow' }]),
  ];
  // api's own `*` (precedence 8) outranks the `*` destination's exact `web` (6).
  expect(decide(entries, 'default', 'web', 'api')).toEqual({ kind: 'deny' });
  expect(decide(entries, 'default', 'web', 'billing')).toEqual({ kind: 'allow' });
  expect(decide([], 'default', 'web', 'api')).toEqual({ kind: 'none' });
});

test('intentionsDiff: a deny where there was an allow reads "web may no longer call api"; a `*` destination touches every destination', () => {
  const item = (address: string, before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined, action: string): PlanHookItem =>
    ({ address, kind: 'mesh.ServiceIntentions', action, before, after });
  const spec = (name: string, sources: unknown[]) => ({ name, namespace: 'default', meta: {}, sources });
  const current = [entry('api', [{ Name: 'web', Action: 'allow' }]), entry('billing', [{ Name: 'web', Action: 'allow' }])];
  let r = intentionsDiff([item('a', spec('api', [{ name: 'web', action: 'allow' }]), spec('api', [{ name: 'web', action: 'deny' }]), 'update')], current);
  expect(r.notes).toEqual(['traffic api: web may no longer call api (it was allowed)']);
  r = intentionsDiff([item('w', undefined, spec('*', [{ name: '*', action: 'deny' }]), 'create')], current);
  // web keeps its exact intentions on api and billing (they outrank `*`): the calls no exact name covers change.
  expect(r.notes).toEqual([
    'traffic api: every other service is now denied calling api (no intention decided it)',
    'traffic billing: every other service is now denied calling billing (no intention decided it)',
    'traffic *: web is now denied calling any other service (no intention decided it)',
    'traffic *: every other service is now denied calling any other service (no intention decided it)',
  ]);
  r = intentionsDiff([item('a', spec('api', [{ name: 'web', action: 'allow' }]), undefined, 'delete')], current);
  expect(r.notes).toEqual(["traffic api: no intention decides any more whether web may call api: the mesh's default policy does (it was allowed)"]);
});

test('permissions: the destination\'s intentions rule (every service\'s for *)', () => {
  expect(MESH_PERMISSIONS['mesh.ServiceIntentions']({ name: 'api' })).toBe('service "api" { intentions = "write" }');
  expect(MESH_PERMISSIONS['mesh.ServiceIntentions']({ name: '*' })).toBe('service_prefix "" { intentions = "write" }');
  expect(meshAclPolicy([
    { kind: 'mesh.ServiceIntentions', spec: { name: 'api' } },
    { kind: 'mesh.ServiceDefaults', spec: { name: 'api' } },
    { kind: 'mesh.ServiceIntentions', spec: { name: 'web' } },
  ])).toBe('service "api" { policy = "write" intentions = "write" }\nservice "web" { intentions = "write" }');
});
