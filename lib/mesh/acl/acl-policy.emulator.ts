/**
 * The mesh's ACL policy endpoints, as Consul 1.16 serves them:
 * - `PUT /v1/acl/policy` creates (`{Name, Description, Rules, Datacenters}`), answering the policy with its `ID`;
 * - `GET|PUT|DELETE /v1/acl/policy/:id` reads, replaces (every field: what the body leaves out is cleared) and deletes;
 * - `GET /v1/acl/policy/name/:name` reads by name; `GET /v1/acl/policies` lists (without `Rules`).
 * A missing policy reads as 404 `Requested policy does not exist: ACL not found`; invalid ones are 500
 * `Invalid Policy: …`; an unknown body key is 400 `Policy decoding failed: json: unknown field "…"`. Every
 * call needs `acl:read` or `acl:write`: the management token (or a token holding global-management) here.
 */
import * as crypto from 'crypto';
import { Router } from '../../core/emulator-kit/router';
import { EmuRequest, EmuResponse, json } from '../../core/emulator-kit/types';
import { parseRules } from './acl-rules';
import { GLOBAL_MANAGEMENT, PolicyRecord } from '../emulator/acl';
import { RequestContext, text } from '../emulator/context';

/** The built-in policy's id, as the mesh gives it. */
export const GLOBAL_MANAGEMENT_ID = '00000000-0000-0000-0000-000000000001';
const POLICY_FIELDS = ['ID', 'Name', 'Description', 'Rules', 'Datacenters', 'Hash', 'CreateIndex', 'ModifyIndex', 'Namespace', 'Partition'];
/** Consul's policy name rule. */
const NAME = /^[A-Za-z0-9\-_]{1,128}(\/[A-Za-z0-9\-_]{1,128})?$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function denied(ctx: RequestContext, permission: 'acl:read' | 'acl:write'): EmuResponse | undefined {
  if (ctx.caller.management || ctx.caller.acl === 'write' || (ctx.caller.acl === 'read' && permission === 'acl:read')) return undefined;
  const who = ctx.caller.accessorId === 'anonymous' ? 'anonymous token' : `token with AccessorID '${ctx.caller.accessorId}'`;
  return text(403, `Permission denied: ${who} lacks permission '${permission}'`);
}

export function idOf(p: PolicyRecord): string {
  return p.management ? GLOBAL_MANAGEMENT_ID : String(p.id);
}

function hashOf(p: PolicyRecord): string {
  return crypto.createHash('sha256').update(JSON.stringify([p.name, p.description ?? '', p.rules ?? '', p.datacenters ?? []])).digest('base64');
}

/** A policy as the mesh answers it (`withRules`: a read; a list leaves the rules out and shows `Datacenters: null`). */
export function policyDocument(p: PolicyRecord, withRules: boolean): Record<string, unknown> {
  const base: Record<string, unknown> = {
    ID: idOf(p), Name: p.name,
    Description: p.management ? 'A built-in policy that grants read and write access to all Consul features' : p.description ?? '',
  };
  if (withRules) base.Rules = p.rules ?? policyRules(p);
  if (p.datacenters?.length) base.Datacenters = p.datacenters;
  else if (!withRules) base.Datacenters = null;
  return { ...base, Hash: hashOf(p), CreateIndex: p.createIndex ?? 1, ModifyIndex: p.modifyIndex ?? 1 };
}

/** The body of a write, or the mesh's answer refusing it. */
function decodePolicy(req: EmuRequest): { Name?: unknown; Description?: unknown; Rules?: unknown; Datacenters?: unknown } | EmuResponse {
  let b: unknown;
  try {
    b = JSON.parse(req.body.toString('utf8') || 'null');
  } catch (e) {
    return text(400, `Policy decoding failed: ${(e as Error).message}`);
  }
  if (b === null || typeof b !== 'object' || Array.isArray(b)) return text(400, 'Policy decoding failed: json: cannot unmarshal into Go value of type structs.ACLPolicy');
  for (const k of Object.keys(b)) if (!POLICY_FIELDS.some((f) => f.toLowerCase() === k.toLowerCase())) return text(400, `Policy decoding failed: json: unknown field "${k}"`);
  const get = (f: string) => Object.entries(b as Record<string, unknown>).find(([k]) => k.toLowerCase() === f.toLowerCase())?.[1];
  return { Name: get('Name'), Description: get('Description'), Rules: get('Rules'), Datacenters: get('Datacenters') };
}

export function isResponse(x: unknown): x is EmuResponse {
  return typeof x === 'object' && x !== null && 'status' in x && 'body' in x;
}

/** Validates and stores a policy (new when `existing` is undefined); answers it. */
function write(ctx: RequestContext, req: EmuRequest, existing: PolicyRecord | undefined): EmuResponse {
  const b = decodePolicy(req);
  if (isResponse(b)) return b;
  const acl = ctx.core.state.acl;
  if (typeof b.Name !== 'string' || !b.Name) return text(500, 'Invalid Policy: no Name is set');
  if (!NAME.test(b.Name)) return text(500, "Invalid Policy: invalid Name. Only alphanumeric characters, a single '/', '-' and '_' are allowed");
  if (existing?.management) return text(500, 'Changing the Rules for the builtin global-management policy is not permitted');
  if (acl.policies.some((p) => p.name === b.Name && p !== existing)) return text(500, `Invalid Policy: A Policy with Name "${b.Name}" already exists`);
  const rulesText = typeof b.Rules === 'string' ? b.Rules : '';
  let parsed;
  try {
    parsed = parseRules(rulesText || '{}');
  } catch (e) {
    return text(500, `Failed to parse ACL rules: ${(e as Error).message}`);
  }
  const names = (m: Map<string, string>, want: string[]) => [...m].filter(([, v]) => want.includes(v)).map(([k]) => k);
  const prefixAll = [...parsed.servicePrefix].filter(([k]) => k === '').map(([, v]) => v)[0];
  const index = ++ctx.core.state.index;
  const record: PolicyRecord = {
    name: b.Name,
    serviceRead: [...names(parsed.service, ['read', 'write']), ...(prefixAll === 'read' || prefixAll === 'write' ? ['*'] : [])],
    serviceWrite: [...names(parsed.service, ['write']), ...(prefixAll === 'write' ? ['*'] : [])],
    operatorWrite: parsed.operator === 'write' || parsed.mesh === 'write',
    ...(parsed.acl === 'read' || parsed.acl === 'write' ? { acl: parsed.acl } : {}),
    intentionsWrite: [...names(parsed.serviceIntentions ?? new Map(), ['write']), ...(parsed.servicePrefixIntentions?.get('') === 'write' ? ['*'] : [])],
    id: existing?.id ?? crypto.randomUUID(),
    description: typeof b.Description === 'string' ? b.Description : '',
    rules: rulesText,
    ...(Array.isArray(b.Datacenters) && b.Datacenters.length ? { datacenters: b.Datacenters.map(String) } : {}),
    createIndex: existing?.createIndex ?? index,
    modifyIndex: index,
  };
  acl.policies = existing ? acl.policies.map((p) => (p === existing ? record : p)) : [...acl.policies, record];
  return json(200, policyDocument(record, true));
}

const NOT_FOUND = 'Requested policy does not exist: ACL not found';

export function registerAclPolicyRoutes(router: Router<RequestContext>): void {
  const all = (ctx: RequestContext) => [GLOBAL_MANAGEMENT, ...ctx.core.state.acl.policies.filter((p) => !p.management)];
  router.add('PUT', '/v1/acl/policy', (req, _p, ctx) => denied(ctx, 'acl:write') ?? write(ctx, req, undefined));
  router.add('GET', '/v1/acl/policies', (_req, _p, ctx) => denied(ctx, 'acl:read')
    ?? json(200, all(ctx).filter((p) => p.management || p.id).map((p) => policyDocument(p, false))));
  router.add('GET', '/v1/acl/policy/name/:name', (_req, p, ctx) => {
    const found = all(ctx).find((x) => x.name === (p as { name: string }).name);
    return denied(ctx, 'acl:read') ?? (found ? json(200, policyDocument(found, true)) : text(404, NOT_FOUND));
  });
  const byId = (ctx: RequestContext, id: string) => all(ctx).find((x) => idOf(x) === id);
  router.add('GET', '/v1/acl/policy/:id', (_req, p, ctx) => {
    const id = (p as { id: string }).id;
    const refused = denied(ctx, 'acl:read');
    if (refused) return refused;
    if (!UUID.test(id)) return text(500, 'failed acl policy lookup: index error: UUID must be 36 characters');
    const found = byId(ctx, id);
    return found ? json(200, policyDocument(found, true)) : text(404, NOT_FOUND);
  });
  router.add('PUT', '/v1/acl/policy/:id', (req, p, ctx) => {
    const id = (p as { id: string }).id;
    const refused = denied(ctx, 'acl:write');
    if (refused) return refused;
    if (!UUID.test(id)) return text(500, 'Policy ID invalid UUID');
    const found = byId(ctx, id);
    return found ? write(ctx, req, found) : text(500, `cannot find policy ${id}`);
  });
  router.add('DELETE', '/v1/acl/policy/:id', (_req, p, ctx) => {
    const id = (p as { id: string }).id;
    const refused = denied(ctx, 'acl:write');
    if (refused) return refused;
    const found = byId(ctx, id);
    if (!found) return text(404, 'Cannot find policy to delete');
    if (found.management) return text(500, 'Delete operation not permitted on the builtin global-management policy');
    const acl = ctx.core.state.acl;
    acl.policies = acl.policies.filter((x) => x !== found);
    ctx.core.state.index++;
    return json(200, true);
  });
}

/** The rules of a policy seeded without a text (`/__admin/policies`), as the mesh's HCL: `*` is every service (a `service_prefix ""`). */
function policyRules(p: PolicyRecord): string {
  if (p.management) return '';
  const lines: string[] = [];
  const write = new Set(p.serviceWrite);
  const rule = (name: string, policy: string) => (name === '*' ? `service_prefix "" { policy = "${policy}" }` : `service ${JSON.stringify(name)} { policy = "${policy}" }`);
  for (const name of p.serviceWrite) lines.push(rule(name, 'write'));
  for (const name of p.serviceRead) if (!write.has(name)) lines.push(rule(name, 'read'));
  if (p.operatorWrite) lines.push('operator = "write"');
  return lines.join('\n');
}
