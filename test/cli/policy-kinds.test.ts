import * as fs from 'fs';
import * as path from 'path';
import { registeredKinds } from '../../lib/core/engine/registry';
import { LOOKUP_PREFIX } from '../../lib/core/model';
import { registerAllKinds } from '../../lib/kinds';
import { MESH_PERMISSIONS } from '../../lib/mesh/permissions';
import { PLATFORM_PERMISSIONS } from '../../lib/platform/permissions';
import { SECRETS_POLICY } from '../../lib/secrets/policy';

registerAllKinds();

// `converge policy` must know what every kind needs, data sources and lookups included: a stack with a
// kind it does not know fails the command. Lookups are the kinds whose construct has a static `from…`.
const assembly = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../.jsii'), 'utf8')) as {
  types: Record<string, { kind: string; methods?: { name: string; static?: boolean }[] }>;
};
const lookupKinds = Object.entries(assembly.types)
  .filter(([, t]) => t.kind === 'class' && (t.methods ?? []).some((m) => m.static && /^from[A-Z]/.test(m.name)))
  .map(([fqn]) => LOOKUP_PREFIX + fqn.slice('cdk-converge.'.length))
  .filter((k) => /^lookup:(platform|secrets|mesh)\./.test(k));

const { resources, dataSources } = registeredKinds();

test('there are lookups to check', () => {
  expect(lookupKinds.length).toBeGreaterThan(10);
});

test.each([...resources, ...dataSources, ...lookupKinds])('converge policy knows what %s needs', (kind) => {
  expect({ kind, known: Boolean(SECRETS_POLICY[kind] ?? PLATFORM_PERMISSIONS[kind] ?? MESH_PERMISSIONS[kind]) }).toEqual({ kind, known: true });
});
