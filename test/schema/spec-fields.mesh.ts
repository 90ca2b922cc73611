import { SpecField, specText } from '../support/spec-tables';

/** `connect_timeout` -> `ConnectTimeout`: the spec names entry fields in snake_case, the API spells them in PascalCase. */
const pascal = (snake: string) => snake.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');

/**
 * The top-level fields the spec names for an entry kind, from its one sentence on the entries that
 * feed compilation (`` `service-resolver` (connect_timeout, failover, …, subsets with a filter expression) ``):
 * each item's first word, up to the first item that goes on into nested fields ("… with …").
 */
function specEntryFields(entryKind: string): string[] {
  const sentence = /Configuration-entry kinds that feed compilation:([^\n]*)/.exec(specText('mesh-api'))?.[1];
  if (!sentence) throw new Error('no "Configuration-entry kinds that feed compilation" in mesh-api');
  const m = new RegExp(`\`${entryKind}\` \\(([^()]*)\\)`).exec(sentence);
  if (!m) throw new Error(`mesh-api names no fields of ${entryKind}`);
  const items = m[1].split(', ');
  const end = items.findIndex((i) => i.includes(' with '));
  return items.slice(0, end < 0 ? items.length : end + 1).map((i) => pascal(i.split(/[ .]/)[0]));
}

/**
 * What the spec leaves out ("the interface for writing configuration entries: not shown"), as the
 * real mesh's configuration-entry interface has it (`../shared/REAL-SYSTEMS.md`: where the spec is
 * silent, the real system): every entry's kind, name, namespace and metadata, and the fields of
 * service-defaults and proxy-defaults beyond the protocol that the compiled chain shows the effect
 * of (`MeshGateway` on every target; `SNI` replaced by an external SNI from service-defaults).
 */
const COMMON = ['Kind', 'Name', 'Namespace', 'Meta'];
const REAL_SYSTEM: Record<string, string[]> = {
  'service-defaults': ['MeshGateway', 'ExternalSNI'],
  'proxy-defaults': ['MeshGateway'],
};

const fields = (entryKind: string) => (): SpecField[] =>
  [...COMMON, ...specEntryFields(entryKind), ...(REAL_SYSTEM[entryKind] ?? [])].map((name) => ({ name }));

/** Each mesh kind's request fields, read from the spec's configuration entry sentence (and the real system where it is silent). */
export const MESH_SPEC_FIELDS: Record<string, () => SpecField[]> = {
  'mesh.ServiceDefaults': fields('service-defaults'),
  'mesh.ProxyDefaults': fields('proxy-defaults'),
  'mesh.ServiceResolver': fields('service-resolver'),
  'mesh.ServiceSplitter': fields('service-splitter'),
  'mesh.ServiceRouter': fields('service-router'),
  // The spec names no service-intentions: Consul 1.16's entry (`Sources`; `Precedence` and `Type` are the server's, unmanaged).
  'mesh.ServiceIntentions': () => [...COMMON, 'Sources'].map((name) => ({ name })),
  // The spec names no ACL endpoints: Consul 1.16's policy body (`ID` is the server's).
  'mesh.AclPolicy': () => ['Name', 'Description', 'Rules', 'Datacenters'].map((name) => ({ name })),
  // Consul 1.16's role body (`ID` is the server's).
  'mesh.AclRole': () => ['Name', 'Description', 'Policies', 'ServiceIdentities', 'NodeIdentities'].map((name) => ({ name })),
  // Consul 1.16's token body (`AccessorID` and `SecretID` are the server's; the SecretID is never kept).
  'mesh.AclToken': () => ['Description', 'Policies', 'Roles', 'ServiceIdentities', 'NodeIdentities', 'Local'].map((name) => ({ name })),
};
