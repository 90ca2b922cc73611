/**
 * The mesh's ACL role endpoints, as Consul 1.16 serves them: `PUT /v1/acl/role` creates (policies named
 * by `ID` or `Name`, service and node identities), `GET|PUT|DELETE /v1/acl/role/:id`, `GET
 * /v1/acl/role/name/:name`, `GET /v1/acl/roles`. A missing role reads as 404 `Requested role does not
 * exist: ACL not found`; invalid ones are 500 with the server's message. Needs `acl:read`/`acl:write`.
 */
import * as crypto from 'crypto';
import { Router } from '../../core/emulator-kit/router';
import { EmuRequest, EmuResponse, json } from '../../core/emulator-kit/types';
import { GLOBAL_MANAGEMENT, RoleRecord } from '../emulator/acl';
import { denied, idOf, isResponse, UUID } from './acl-policy.emulator';
import { RequestContext, text } from '../emulator/context';

const ROLE_FIELDS = ['ID', 'Name', 'Description', 'Policies', 'ServiceIdentities', 'NodeIdentities', 'Hash', 'CreateIndex', 'ModifyIndex', 'Namespace', 'Partition'];
const NAME = /^[A-Za-z0-9\-_]{1,256}$/;
const SERVICE_NAME = /^[a-z0-9]([a-z0-9\-_]*[a-z0-9])?$/;
const NOT_FOUND = 'Requested role does not exist: ACL not found';

function roleDocument(ctx: RequestContext, r: RoleRecord): Record<string, unknown> {
  const all = [GLOBAL_MANAGEMENT, ...ctx.core.state.acl.policies];
  const policies = r.policies.map((name) => all.find((p) => p.name === name)).filter((p) => p !== undefined).map((p) => ({ ID: idOf(p!), Name: p!.name }));
  const hash = crypto.createHash('sha256').update(JSON.stringify([r.name, r.description, r.policies, r.serviceIdentities, r.nodeIdentities])).digest('base64');
  return {
    ID: r.id, Name: r.name, Description: r.description ?? '',
    ...(policies.length ? { Policies: policies } : {}),
    ...(r.serviceIdentities?.length ? { ServiceIdentities: r.serviceIdentities } : {}),
    ...(r.nodeIdentities?.length ? { NodeIdentities: r.nodeIdentities } : {}),
    Hash: hash, CreateIndex: r.createIndex ?? 1, ModifyIndex: r.modifyIndex ?? 1,
  };
}

function decode(req: EmuRequest): Record<string, unknown> | EmuResponse {
  let b: unknown;
  try {
    b = JSON.parse(req.body.toString('utf8') || 'null');
  } catch (e) {
    return text(400, `Role decoding failed: ${(e as Error).message}`);
  }
  if (b === null || typeof b !== 'object' || Array.isArray(b)) return text(400, 'Role decoding failed: json: cannot unmarshal into Go value of type structs.ACLRole');
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(b)) {
    const f = ROLE_FIELDS.find((x) => x.toLowerCase() === k.toLowerCase());
    if (!f) return text(400, `Role decoding failed: json: unknown field "${k}"`);
    out[f] = v;
  }
  return out;
}

const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') as Record<string, unknown>[] : []);

function write(ctx: RequestContext, req: EmuRequest, existing: RoleRecord | undefined): EmuResponse {
  const b = decode(req);
  if (isResponse(b)) return b;
  const acl = ctx.core.state.acl;
  const roles = acl.roles ?? [];
  if (typeof b.Name !== 'string' || !b.Name) return text(500, 'Invalid Role: no Name is set');
  if (!NAME.test(b.Name)) return text(500, "Invalid Role: invalid Name. Only alphanumeric characters, '-' and '_' are allowed");
  if (roles.some((r) => r.name === b.Name && r !== existing)) return text(500, `Invalid Role: A Role with Name "${b.Name}" already exists`);
  const all = [GLOBAL_MANAGEMENT, ...acl.policies];
  const policies: string[] = [];
  for (const p of list(b.Policies)) {
    const found = typeof p.ID === 'string' && p.ID ? all.find((x) => idOf(x) === p.ID) : all.find((x) => x.name === p.Name);
    if (!found) return text(500, typeof p.ID === 'string' && p.ID ? `No such ACL policy with ID "${p.ID}"` : `No such ACL policy with name "${String(p.Name ?? '')}"`);
    if (!policies.includes(found.name)) policies.push(found.name);
  }
  const serviceIdentities: { ServiceName: string; Datacenters?: string[] }[] = [];
  for (const s of list(b.ServiceIdentities)) {
    const name = String(s.ServiceName ?? '');
    if (!name) return text(500, 'Service identity is missing the service name field on this role');
    if (!SERVICE_NAME.test(name)) return text(500, `Service identity "${name}" has an invalid name. Only lowercase alphanumeric characters, '-' and '_' are allowed`);
    const dcs = Array.isArray(s.Datacenters) ? s.Datacenters.map(String) : [];
    serviceIdentities.push({ ServiceName: name, ...(dcs.length ? { Datacenters: dcs } : {}) });
  }
  const nodeIdentities: { NodeName: string; Datacenter: string }[] = [];
  for (const n of list(b.NodeIdentities)) {
    if (!n.NodeName) return text(500, 'Node identity is missing the node name field on this role');
    if (!n.Datacenter) return text(500, 'Node identity is missing the datacenter field on this role');
    nodeIdentities.push({ NodeName: String(n.NodeName), Datacenter: String(n.Datacenter) });
  }
  const index = ++ctx.core.state.index;
  const record: RoleRecord = {
    name: b.Name, policies, id: existing?.id ?? crypto.randomUUID(), description: typeof b.Description === 'string' ? b.Description : '',
    serviceIdentities, nodeIdentities, createIndex: existing?.createIndex ?? index, modifyIndex: index,
  };
  acl.roles = existing ? roles.map((r) => (r === existing ? record : r)) : [...roles, record];
  return json(200, roleDocument(ctx, record));
}

export function registerAclRoleRoutes(router: Router<RequestContext>): void {
  const roles = (ctx: RequestContext) => ctx.core.state.acl.roles ?? [];
  // (Roles of older snapshots have no id: they are listed and found by name, never by id.)
  const withId = roles;
  router.add('PUT', '/v1/acl/role', (req, _p, ctx) => denied(ctx, 'acl:write') ?? write(ctx, req, undefined));
  router.add('GET', '/v1/acl/roles', (_req, _p, ctx) => denied(ctx, 'acl:read') ?? json(200, withId(ctx).map((r) => roleDocument(ctx, r))));
  router.add('GET', '/v1/acl/role/name/:name', (_req, p, ctx) => {
    const found = withId(ctx).find((r) => r.name === (p as { name: string }).name);
    return denied(ctx, 'acl:read') ?? (found ? json(200, roleDocument(ctx, found)) : text(404, NOT_FOUND));
  });
  router.add('GET', '/v1/acl/role/:id', (_req, p, ctx) => {
    const refused = denied(ctx, 'acl:read');
    if (refused) return refused;
    const id = (p as { id: string }).id;
    if (!UUID.test(id)) return text(500, 'failed acl role lookup: index error: UUID must be 36 characters');
    const found = withId(ctx).find((r) => r.id === id);
    return found ? json(200, roleDocument(ctx, found)) : text(404, NOT_FOUND);
  });
  router.add('PUT', '/v1/acl/role/:id', (req, p, ctx) => {
    const refused = denied(ctx, 'acl:write');
    if (refused) return refused;
    const id = (p as { id: string }).id;
    if (!UUID.test(id)) return text(500, 'Role ID invalid UUID');
    const found = withId(ctx).find((r) => r.id === id);
    return found ? write(ctx, req, found) : text(500, `cannot find role ${id}`);
  });
  router.add('DELETE', '/v1/acl/role/:id', (_req, p, ctx) => {
    const refused = denied(ctx, 'acl:write');
    if (refused) return refused;
    const found = withId(ctx).find((r) => r.id === (p as { id: string }).id);
    if (!found) return text(404, 'Cannot find role to delete');
    ctx.core.state.acl.roles = roles(ctx).filter((r) => r !== found);
    ctx.core.state.index++;
    return json(200, true);
  });
}
