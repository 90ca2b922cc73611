import { KindSchema } from '../../core/schema';
import { SEGMENT_NAME_FIELD, mountField } from '../shared/engine-fields';

/** Token types of mesh versions below 1.11. */
export const MESH_TOKEN_TYPES = ['client', 'management'] as const;

/** The mesh version a role is written for when none is given. */
export const DEFAULT_MESH_VERSION = '1.13';

/** `major.minor` as a comparable number (1.4 -> 1004); NaN when not a version. */
export function meshVersionNumber(v: string): number {
  const m = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(v);
  return m ? Number(m[1]) * 1000 + Number(m[2]) : NaN;
}

/**
 * The mesh versions each role field applies to, `[from, before)` as `meshVersionNumber`s (the
 * spec's table of role parameters by version): the construct renders and validates only those.
 */
export const MESH_ROLE_FIELD_VERSIONS: Readonly<Record<string, readonly [number, number]>> = {
  meshPolicies: [1004, Infinity],
  local: [1004, Infinity],
  ttl: [1004, Infinity],
  maxTtl: [1004, Infinity],
  meshRoles: [1005, Infinity],
  serviceIdentities: [1005, Infinity],
  nodeIdentities: [1008, Infinity],
  meshNamespace: [1008, Infinity],
  partition: [1011, Infinity],
  tokenType: [0, 1011],
  policy: [0, 1011],
  lease: [0, 1004],
};

/** Whether a role field applies to a mesh version (fields without an entry always do). */
export function meshRoleFieldApplies(field: string, version: number): boolean {
  const range = MESH_ROLE_FIELD_VERSIONS[field];
  return !range || (version >= range[0] && version < range[1]);
}

/**
 * `secrets.MeshTokenRole`: the body of `POST {mount}/roles/<name>`, camelCased, every field of every
 * mesh version (`MESH_ROLE_FIELD_VERSIONS` says which apply to which); `meshVersion` is the
 * construct's own (it picks the fields), never sent.
 */
export const MESH_TOKEN_ROLE: KindSchema = {
  kind: 'secrets.MeshTokenRole',
  api: 'secrets',
  wireCase: 'snake',
  fields: {
    mount: mountField('mesh'),
    name: SEGMENT_NAME_FIELD,
    meshVersion: {
      type: 'string', local: true, default: DEFAULT_MESH_VERSION, pattern: /^\d+\.\d+(?:\.\d+)?$/,
      patternRule: 'must be major.minor[.patch], e.g. 1.13',
    },
    meshPolicies: { type: 'string-set', default: [] },
    meshRoles: { type: 'string-set', default: [] },
    serviceIdentities: {
      type: 'string-set', default: [], pattern: /^[^:,\s]+(:[^:,\s]+(,[^:,\s]+)*)?$/,
      patternRule: 'must be <service>:<datacenter>[,<datacenter>]',
    },
    nodeIdentities: { type: 'string-set', default: [], pattern: /^[^:\s]+:[^:\s]+$/, patternRule: 'must be <node>:<datacenter>' },
    meshNamespace: { type: 'string', default: 'default' },
    partition: { type: 'string', default: 'default' },
    local: { type: 'boolean', default: false },
    ttl: { type: 'duration', default: '0s' },
    maxTtl: { type: 'duration', default: '0s' },
    tokenType: { type: 'string', oneOf: MESH_TOKEN_TYPES, default: 'client' },
    policy: { type: 'string', default: '' },
    lease: { type: 'duration', default: '' },
  },
  unmanaged: {
    policies: 'an alias of mesh_policies (removed in mesh 1.11): converge sends mesh_policies',
  },
};
