/**
 * The mesh's own ACL and agent endpoints that clients of the secrets service's mesh-token engine
 * call: `PUT /v1/acl/bootstrap` (always refused: the emulator starts with a management token), `GET /v1/acl/token/self`,
 * `PUT /v1/acl/role`, `PUT /v1/namespace`, `PUT /v1/partition` (management token) and
 * `GET /v1/agent/self` (the agent's version).
 */
import { Router } from '../../core/emulator-kit/router';
import { EmuRequest, json, parseJsonBody } from '../../core/emulator-kit/types';
import { TokenRecord } from './acl';
import { registerAclPolicyRoutes } from '../acl/acl-policy.emulator';
import { registerAclRoleRoutes } from '../acl/acl-role.emulator';
import { registerAclTokenRoutes } from '../acl/acl-token.emulator';
import { RequestContext, text } from './context';

function body(req: EmuRequest): Record<string, unknown> {
  const b = parseJsonBody(req);
  return b !== null && typeof b === 'object' && !Array.isArray(b) ? b as Record<string, unknown> : {};
}

const MANAGEMENT_ACCESSOR = '00000000-0000-4000-8000-000000000001';
const STARTED = new Date().toISOString();

function tokenDocument(t: TokenRecord, secretId?: string): Record<string, unknown> {
  return {
    AccessorID: t.accessorId,
    ...(secretId ? { SecretID: secretId } : {}),
    Description: t.description ?? '',
    Policies: t.policies.map((Name) => ({ Name })),
    ...(t.roles?.length ? { Roles: t.roles.map((Name) => ({ Name })) } : {}),
    ...(t.serviceIdentities?.length ? {
      ServiceIdentities: t.serviceIdentities.map((s) => {
        const [ServiceName, dcs] = s.split(':');
        return { ServiceName, ...(dcs ? { Datacenters: dcs.split(',') } : {}) };
      }),
    } : {}),
    ...(t.nodeIdentities?.length ? { NodeIdentities: t.nodeIdentities.map((n) => ({ NodeName: n.split(':')[0], Datacenter: n.split(':')[1] })) } : {}),
    Local: false,
    Namespace: t.namespace,
    Partition: t.partition ?? 'default',
    CreateTime: t.createTime,
  };
}

/** The raft index of the management token the emulator starts with. */
const BOOTSTRAP_RESET_INDEX = 1;

export function registerAclRoutes(router: Router<RequestContext>, version: string): void {
  router.add('PUT', '/v1/acl/bootstrap', (req) => {
    parseJsonBody(req); // an optional body; an undecodable one is 400 "Request decoding failed"
    // The emulator starts with a management token, as a mesh configured with
    // acl.tokens.initial_management does: the real server then refuses bootstrap to anyone, with the
    // raft index of that token (the emulator's first index) as the reset index.
    return text(403, `Permission denied: ACL bootstrap no longer allowed (reset index: ${BOOTSTRAP_RESET_INDEX})`);
  });
  router.add('GET', '/v1/acl/token/self', (_req, _p, ctx) => {
    const t = ctx.core.state.acl.tokens.find((x) => x.accessorId === ctx.caller.accessorId);
    // As the real server: the token's own secret comes back, with its policies.
    if (t) return json(200, tokenDocument(t, ctx.secret));
    if (ctx.caller.management) {
      // As the real server answers its initial management token.
      return json(200, {
        AccessorID: MANAGEMENT_ACCESSOR, SecretID: ctx.secret, Description: 'Initial Management Token',
        Policies: [{ ID: '00000000-0000-0000-0000-000000000001', Name: 'global-management' }],
        Local: false, CreateTime: STARTED, Hash: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', CreateIndex: 1, ModifyIndex: 1,
      });
    }
    return text(403, 'ACL not found');
  });
  const scope = (kind: 'namespaces' | 'partitions', label: string) => (req: EmuRequest, _p: unknown, ctx: RequestContext) => {
    if (!ctx.caller.management) return text(403, `Permission denied: creating a ${label} needs operator:write`);
    const name = body(req).Name;
    if (typeof name !== 'string' || !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(name)) return text(400, `Invalid ${label} name`);
    const list = ctx.core.state.acl[kind] ?? [];
    if (!list.includes(name)) ctx.core.state.acl[kind] = [...list, name];
    return json(200, { Name: name, Description: '' });
  };
  router.add('PUT', '/v1/namespace', scope('namespaces', 'namespace'));
  router.add('PUT', '/v1/partition', scope('partitions', 'partition'));
  registerAclRoleRoutes(router);
  registerAclPolicyRoutes(router);
  // After `acl/token/self`, which the token routes' `:id` would otherwise take.
  registerAclTokenRoutes(router);
  router.add('GET', '/v1/agent/self', (_req, _p, ctx) => (ctx.caller.accessorId === 'anonymous'
    ? text(403, 'Permission denied: anonymous token lacks permission \'agent:read\' on "emulator"')
    : json(200, {
    Config: { Datacenter: ctx.core.datacenter, NodeName: 'emulator', Version: version, Server: true },
    Member: { Name: 'emulator', Tags: { dc: ctx.core.datacenter, build: version } },
  })));
}
