import { MeshWatch } from '../../lib/cli/watch/mesh-watch';
import { ApiClients } from '../../lib/core/engine/api-clients';
import { DesiredResource, DesiredStack } from '../../lib/core/model';
import { registerAllKinds } from '../../lib/kinds';
import { MESH_KINDS } from '../../lib/mesh/kinds';

// The watcher's entry kinds come from the registered handlers, not a table of its own: a stack that uses
// every mesh kind has each configuration-entry kind watched (one blocking query each), and nothing else.
describe('converge watch: the mesh kinds it watches', () => {
  beforeAll(() => registerAllKinds());

  test('every registered configuration-entry kind is watched; the ACL kinds are not', () => {
    const provider = { api: 'mesh' as const, addressEnv: 'MESH_HTTP_ADDR', tokenEnv: 'MESH_HTTP_TOKEN' };
    const resources: Record<string, DesiredResource> = Object.fromEntries(MESH_KINDS.resources.map((h) =>
      [`${h.kind}.x`, { kind: h.kind, path: `all-mesh/${h.kind}`, spec: { name: 'x' }, provider, dependsOn: [], removalPolicy: 'destroy' }]));
    const stack: DesiredStack = { version: 1, stack: 'all-mesh', resources };
    const watch = new MeshWatch(new ApiClients(), [stack], 1, () => undefined, () => undefined);

    // What each kind's schema says it writes: a configuration entry has an `entryKind`.
    const entryKinds = MESH_KINDS.resources.map((h) => (h.schema as { entryKind?: string } | undefined)?.entryKind).filter((k): k is string => !!k);
    expect(entryKinds).toEqual(expect.arrayContaining(['service-defaults', 'proxy-defaults', 'service-resolver', 'service-splitter', 'service-router', 'service-intentions']));
    expect(watch.entryKinds).toEqual([...entryKinds].sort());
    expect(watch.size).toBe(entryKinds.length);
  });
});
