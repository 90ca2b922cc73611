/**
 * The mesh's ACL token endpoints, as Consul 1.16 serves them: `PUT /v1/acl/token` creates (policies and
 * roles by `ID` or `Name`, service and node identities, `Local`, a given `AccessorID` / `SecretID`), answering the token with its
 * `AccessorID` and `SecretID`; `GET|PUT|DELETE /v1/acl/token/:accessor`; `GET /v1/acl/tokens`. A missing
 * token reads as 403 `token does not exist: ACL not found`. The emulator keeps only a digest of each
 * secret, so the secret is answered once, on create (the real server answers it on every read).
 */
import * as crypto from 'crypto';
import { Router } from '../../core/emulator-kit/router';
import { EmuRequest, EmuResponse, json } from '../../core/emulator-kit/types';
import { digest, GLOBAL_MANAGEMENT, TokenRecord } from '../emulator/acl';
import { denied, idOf, isResponse, UUID } from './acl-policy.emulator';
import { RequestContext, text } from '../emulator/context';

const TOKEN_FIELDS = ['AccessorID', 'SecretID', 'Description', 'Policies', 'Roles', 'ServiceIdentities', 'NodeIdentities', 'Local',
  'ExpirationTime', 'ExpirationTTL', 'CreateTime', 'Hash', 'CreateIndex', 'ModifyIndex', 'Namespace', 'Partition'];
const SERVICE_NAME = /^[a-z0-9]([a-z0-9\-_]*[a-z0-9])?$/;

function tokenDoc(ctx: RequestContext, t: TokenRecord, secretId?: string): Record<string, unknown> {
  const policies = [GLOBAL_MANAGEMENT, ...ctx.core.state.acl.policies];
  const links = t.policies.map((n) => policies.find((p) => p.name === n)).filter((p) => p).map((p) => ({ ID: idOf(p!), Name: p!.name }));
  const roles = (t.roles ?? []).map((n) => ctx.core.state.acl.roles?.find((r) => r.name === n)).filter((r) => r).map((r) => ({ ID: r!.id, Name: r!.name }));
  const hash = crypto.createHash('sha256').update(JSON.stringify([t.description, t.policies, t.roles, t.serviceIdentities, t.nodeIdentities])).digest('base64');
  return {
    AccessorID: t.accessorId, ...(secretId ? { SecretID: secretId } : {}), Description: t.description ?? '',
    ...(links.length ? { Policies: links } : {}),
    ...(roles.length ? { Roles: roles } : {}),
    ...(t.serviceIdentities?.length ? {
      ServiceIdentities: t.serviceIdentities.map((s) => {
        const [ServiceName, dcs] = s.split(':');
        return { ServiceName, ...(dcs ? { Datacenters: dcs.split(',') } : {}) };
      }),
    } : {}),
    ...(t.nodeIdentities?.length ? { NodeIdentities: t.nodeIdentities.map((n) => ({ NodeName: n.split(':')[0], Datacenter: n.split(':')[1] })) } : {}),
    Local: t.local ?? false, CreateTime: t.createTime, Hash: hash, CreateIndex: t.createIndex ?? 1, ModifyIndex: t.modifyIndex ?? 1,
  };
}

function decode(req: EmuRequest): Record<string, unknown> | EmuResponse {
  let b: unknown;
  try {
    b = JSON.parse(req.body.toString('utf8') || 'null');
  } catch (e) {
    return text(400, `Token decoding failed: ${(e as Error).message}`);
  }
  if (b === null || typeof b !== 'object' || Array.isArray(b)) return text(400, 'Token decoding failed: json: cannot unmarshal into Go value of type structs.ACLToken');
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(b)) {
    const f = TOKEN_FIELDS.find((x) => x.toLowerCase() === k.toLowerCase());
    if (!f) return text(400, `Token decoding failed: json: unknown field "${k}"`);
    out[f] = v;
  }
  return out;
}

const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') as Record<string, unknown>[] : []);

/**
 * The AccessorID and SecretID a create may give (as Terraform's `accessor_id`, or a token carried over
 * from another cluster): UUIDs not in use and not of the reserved range, as Consul checks them.
 */
function givenIds(tokens: readonly TokenRecord[], b: Record<string, unknown>): { accessorId?: string; secretId?: string } | EmuResponse {
  const out: { accessorId?: string; secretId?: string } = {};
  for (const [field, key] of [['AccessorID', 'accessorId'], ['SecretID', 'secretId']] as const) {
    const v = b[field];
    if (v === undefined || v === null || v === '') continue;
    if (typeof v !== 'string' || !UUID.test(v)) return text(500, `Invalid Token: ${field} - not a valid UUID`);
    if (v.startsWith('00000000-0000-0000-0000-0000000000')) return text(500, `Invalid Token: ${field} - UUIDs with the prefix "00000000-0000-0000-0000-0000000000" are reserved`);
    const inUse = key === 'accessorId' ? tokens.some((t) => t.accessorId === v) : tokens.some((t) => t.secretDigest === digest(v));
    if (inUse) return text(500, `Invalid Token: ${field} is already in use`);
    out[key] = v;
  }
  return out;
}

/** Validates and stores a token (new when `existing` is undefined). */
function write(ctx: RequestContext, req: EmuRequest, existing: TokenRecord | undefined): EmuResponse {
  const b = decode(req);
  if (isResponse(b)) return b;
  const acl = ctx.core.state.acl;
  if (existing && b.Local !== undefined && Boolean(b.Local) !== (existing.local ?? false)) return text(500, `Cannot toggle local mode of ${existing.accessorId}`);
  const allPolicies = [GLOBAL_MANAGEMENT, ...acl.policies];
  const policies: string[] = [];
  for (const p of list(b.Policies)) {
    const found = p.ID ? allPolicies.find((x) => idOf(x) === p.ID) : allPolicies.find((x) => x.name === p.Name);
    if (!found) return text(500, p.ID ? `No such ACL policy with ID "${String(p.ID)}"` : `No such ACL policy with name "${String(p.Name ?? '')}"`);
    if (!policies.includes(found.name)) policies.push(found.name);
  }
  const roles: string[] = [];
  for (const r of list(b.Roles)) {
    const found = (acl.roles ?? []).find((x) => (r.ID ? x.id === r.ID : x.name === r.Name));
    if (!found) return text(500, r.ID ? `No such ACL role with ID "${String(r.ID)}"` : `No such ACL role with name "${String(r.Name ?? '')}"`);
    if (!roles.includes(found.name)) roles.push(found.name);
  }
  const serviceIdentities: string[] = [];
  for (const s of list(b.ServiceIdentities)) {
    const name = String(s.ServiceName ?? '');
    if (!SERVICE_NAME.test(name)) return text(500, `Service identity "${name}" has an invalid name. Only lowercase alphanumeric characters, '-' and '_' are allowed`);
    const dcs = Array.isArray(s.Datacenters) ? s.Datacenters.map(String) : [];
    if (dcs.length && Boolean(existing?.local ?? b.Local)) return text(500, `Service identity "${name}" cannot specify a list of datacenters on a local token`);
    serviceIdentities.push(dcs.length ? `${name}:${dcs.join(',')}` : name);
  }
  const nodeIdentities: string[] = [];
  for (const n of list(b.NodeIdentities)) {
    if (!n.Datacenter) return text(500, 'Node identity is missing the datacenter field on this token');
    nodeIdentities.push(`${String(n.NodeName)}:${String(n.Datacenter)}`);
  }
  const given = existing ? {} : givenIds(acl.tokens, b);
  if (isResponse(given)) return given;
  const index = ++ctx.core.state.index;
  const secretId = existing ? undefined : given.secretId ?? crypto.randomUUID();
  const record: TokenRecord = {
    accessorId: existing?.accessorId ?? given.accessorId ?? crypto.randomUUID(),
    secretDigest: existing?.secretDigest ?? digest(secretId!),
    policies, serviceRead: [], namespace: 'default',
    ...(typeof b.Description === 'string' && b.Description ? { description: b.Description } : {}),
    createTime: existing?.createTime ?? new Date().toISOString(),
    ...(roles.length ? { roles } : {}),
    ...(serviceIdentities.length ? { serviceIdentities } : {}),
    ...(nodeIdentities.length ? { nodeIdentities } : {}),
    local: existing?.local ?? Boolean(b.Local),
    createIndex: existing?.createIndex ?? index, modifyIndex: index,
  };
  acl.tokens = existing ? acl.tokens.map((t) => (t === existing ? record : t)) : [...acl.tokens, record];
  return json(200, tokenDoc(ctx, record, secretId));
}

const NOT_FOUND = 'token does not exist: ACL not found';

export function registerAclTokenRoutes(router: Router<RequestContext>): void {
  const find = (ctx: RequestContext, id: string) => ctx.core.state.acl.tokens.find((t) => t.accessorId === id);
  router.add('PUT', '/v1/acl/token', (req, _p, ctx) => denied(ctx, 'acl:write') ?? write(ctx, req, undefined));
  router.add('GET', '/v1/acl/tokens', (_req, _p, ctx) => denied(ctx, 'acl:read') ?? json(200, ctx.core.state.acl.tokens.map((t) => tokenDoc(ctx, t))));
  router.add('GET', '/v1/acl/token/:id', (_req, p, ctx) => {
    const refused = denied(ctx, 'acl:read');
    if (refused) return refused;
    const found = find(ctx, (p as { id: string }).id);
    return found ? json(200, tokenDoc(ctx, found)) : text(403, NOT_FOUND);
  });
  router.add('PUT', '/v1/acl/token/:id', (req, p, ctx) => {
    const refused = denied(ctx, 'acl:write');
    if (refused) return refused;
    const id = (p as { id: string }).id;
    // `self` is a read-only route of its own: the real server answers another method 405, never as an accessor id.
    if (id === 'self') return text(405, 'method PUT not allowed');
    if (!UUID.test(id)) return text(500, 'Token AccessorID invalid UUID');
    const found = find(ctx, id);
    return found ? write(ctx, req, found) : text(500, `Cannot find token ${id}`);
  });
  router.add('DELETE', '/v1/acl/token/:id', (_req, p, ctx) => {
    const refused = denied(ctx, 'acl:write');
    if (refused) return refused;
    if ((p as { id: string }).id === 'self') return text(405, 'method DELETE not allowed');
    const found = find(ctx, (p as { id: string }).id);
    if (!found) return text(404, 'Cannot find token to delete');
    ctx.core.state.acl.tokens = ctx.core.state.acl.tokens.filter((t) => t !== found);
    ctx.core.state.index++;
    return json(200, true);
  });
}
