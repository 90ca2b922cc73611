import * as fs from 'fs';
import * as path from 'path';
import { dataSourceHandler, registeredKinds, resourceHandler } from '../../lib/core/engine/registry';
import { LOOKUP_PREFIX } from '../../lib/core/model';
import { registerAllKinds } from '../../lib/kinds';
import { SECRETS_POLICY } from '../../lib/secrets/policy';

registerAllKinds();

// A secrets kind is self-contained: its handler declares the ACL paths its requests need, and
// `converge policy`, LeastPrivilegePolicy and the preflight collect them from the registry. A kind whose
// handler forgets them fails here, instead of printing a policy without its paths.

const { resources, dataSources } = registeredKinds();
const secretsResources = resources.filter((k) => resourceHandler(k).api === 'secrets');
const secretsDataSources = dataSources.filter((k) => dataSourceHandler(k).api === 'secrets');

// The lookups are the secrets constructs with a static `from…` (as test/cli/policy-kinds.test.ts finds them).
const assembly = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../.jsii'), 'utf8')) as {
  types: Record<string, { kind: string; methods?: { name: string; static?: boolean }[] }>;
};
const secretsLookups = Object.entries(assembly.types)
  .filter(([fqn, t]) => fqn.startsWith('cdk-converge.secrets.') && t.kind === 'class' && (t.methods ?? []).some((m) => m.static && /^from[A-Z]/.test(m.name)))
  .map(([fqn]) => LOOKUP_PREFIX + fqn.slice('cdk-converge.'.length));

test('there are secrets kinds and lookups to check', () => {
  expect(secretsResources.length).toBeGreaterThan(10);
  expect(secretsDataSources.length).toBeGreaterThan(5);
  expect(secretsLookups.length).toBeGreaterThan(5);
});

test.each(secretsResources)('the handler of resource %s declares its policy', (kind) => {
  expect({ kind, declared: typeof resourceHandler(kind).permissions }).toEqual({ kind, declared: 'function' });
});

test.each(secretsDataSources)('the handler of data source %s declares its policy', (kind) => {
  expect({ kind, declared: typeof dataSourceHandler(kind).permissions }).toEqual({ kind, declared: 'function' });
});

test.each(secretsLookups)('the resource handler of %s declares what its lookup reads', (kind) => {
  expect({ kind, declared: typeof dataSourceHandler(kind).permissions }).toEqual({ kind, declared: 'function' });
});

test('the policy table is the registry\'s: every declared policy and nothing else', () => {
  const declared = [...secretsResources, ...secretsDataSources, ...secretsLookups].sort();
  expect(Object.keys(SECRETS_POLICY).sort()).toEqual(declared);
  for (const kind of declared) {
    const spec = { mount: 'm', path: 'p', name: 'n', role: 'r', setName: 's', id: 'm/x/n', known: { mount: 'm', path: 'p' } };
    const h = kind.startsWith(LOOKUP_PREFIX) || secretsDataSources.includes(kind) ? dataSourceHandler(kind) : resourceHandler(kind);
    expect({ kind, policy: SECRETS_POLICY[kind](spec) }).toEqual({ kind, policy: (h.permissions as (s: typeof spec) => unknown)(spec) });
  }
});
