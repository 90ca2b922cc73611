import { HandlerContext, Observed, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { MeshRoleInput, MeshTokenClient } from './mesh-token-client';
import { durationSeconds } from '../../core/constructs/validation';
import { normalDuration } from '../../core/duration';
import { stringSet } from '../../core/string-set';
import { pathImportId, secretsClient, splitPathId } from '../engine-util';

const client = (ctx: HandlerContext) => new MeshTokenClient(secretsClient(ctx), ctx.address);

/** The API parameters of the fields the spec holds (the construct kept only those of its mesh version). */
function body(spec: Spec): MeshRoleInput {
  const map: Record<string, string> = {
    meshPolicies: 'mesh_policies', meshRoles: 'mesh_roles', serviceIdentities: 'service_identities',
    nodeIdentities: 'node_identities', meshNamespace: 'mesh_namespace', partition: 'partition', local: 'local',
    ttl: 'ttl', maxTtl: 'max_ttl', tokenType: 'token_type', policy: 'policy', lease: 'lease',
  };
  const out: Record<string, unknown> = {};
  for (const [k, api] of Object.entries(map)) if (spec[k] !== undefined) out[api] = spec[k];
  return out as MeshRoleInput;
}

async function write(ctx: HandlerContext, spec: Spec): Promise<Written> {
  await client(ctx).writeRole(spec.mount as string, spec.name as string, body(spec));
  return { id: `${spec.mount}/roles/${spec.name}` };
}

/**
 * Lifecycle of `secrets.MeshTokenRole` (`{mount}/roles/<name>`). The fields of mesh versions below
 * 1.11 (`tokenType`, `policy`, `lease`) are read back when the service answers them (a role written
 * for such a mesh), else compared with the last apply;
 * `meshVersion` is the construct's own (it picks the validation rules) and never differs.
 */
export const meshTokenRoleHandler: ResourceHandler = {
  kind: 'secrets.MeshTokenRole',
  api: 'secrets',
  replaceFields: ['mount', 'name'],

  naturalId: (spec) => `${spec.mount}/roles/${spec.name}`,
  importId: (id) => pathImportId(id, 'roles', 'mesh/roles/web'),

  async read(ctx, id, desired): Promise<Observed | undefined> {
    const at = splitPathId(id, 'roles')!;
    const r = await client(ctx).readRole(at.mount, at.name);
    if (!r) return undefined;
    const fields: Record<string, unknown> = {
      mount: at.mount, name: at.name, meshPolicies: stringSet(r.mesh_policies), meshRoles: stringSet(r.mesh_roles),
      serviceIdentities: stringSet(r.service_identities), nodeIdentities: stringSet(r.node_identities), meshNamespace: r.mesh_namespace,
      partition: r.partition, local: r.local,
      ttl: normalDuration(r.ttl), maxTtl: normalDuration(r.max_ttl),
    };
    if (r.token_type !== undefined) {
      Object.assign(fields, { tokenType: r.token_type, policy: r.policy ?? '' });
      const lease = r.lease === undefined ? undefined : durationSeconds(r.lease);
      // An unset lease ('' in the spec) reads 0 from the service.
      if (lease !== undefined) fields.lease = lease === 0 && (desired?.lease ?? '') === '' ? '' : normalDuration(lease);
    }
    // Only the fields of the desired mesh version are managed.
    if (desired) for (const k of Object.keys(fields)) if (!(k in desired) && k !== 'mount' && k !== 'name') delete fields[k];
    // meshVersion only chooses how the construct validates: no API field, nothing to differ.
    if (desired?.meshVersion !== undefined) fields.meshVersion = desired.meshVersion;
    return { fields };
  },

  create: (ctx, spec) => write(ctx, spec),
  update: (ctx, _id, spec) => write(ctx, spec),

  async delete(ctx, id) {
    const at = splitPathId(id, 'roles')!;
    await client(ctx).deleteRole(at.mount, at.name);
  },
};
