/**
 * The emulator's administrator interface under `/__admin/` (management token only), for
 * seeding ACL tokens and policies. `GET /__admin/` lists the endpoints.
 */
import { Router } from '../../core/emulator-kit/router';
import { EmuRequest, json, parseJsonBody } from '../../core/emulator-kit/types';
import { AclState, createToken, CreateTokenOptions, deleteToken } from './acl';
import { text } from './context';

export const ADMIN_ENDPOINTS = [
  { method: 'GET', path: '/__admin/', description: 'this list' },
  { method: 'POST', path: '/__admin/tokens', body: '{ policies?: string[], roles?: string[], serviceRead?: string[], serviceIdentities?: string[], nodeIdentities?: string[], namespace?, partition?, checkScopes?: boolean, description? }', description: 'create an ACL token; answers { secretId, accessorId } (the secret only once); checkScopes refuses a namespace or partition not created with PUT /v1/namespace or /v1/partition' },
  { method: 'GET', path: '/__admin/tokens', description: 'list tokens (accessor ids and rules, never secrets)' },
  { method: 'DELETE', path: '/__admin/tokens/:accessorId', description: 'revoke a token' },
  { method: 'POST', path: '/__admin/policies', body: '{ name, serviceRead?: string[], serviceWrite?: string[], operatorWrite?: boolean }', description: 'create or replace a policy tokens can name' },
  { method: 'GET', path: '/__admin/policies', description: 'list policies' },
];

export interface AdminContext {
  readonly acl: AclState;
}

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : undefined);

function body(req: EmuRequest): Record<string, unknown> {
  const b = parseJsonBody(req);
  if (b === undefined) return {};
  if (b === null || typeof b !== 'object' || Array.isArray(b)) throw new Error('the body must be a JSON object');
  return b as Record<string, unknown>;
}

export function registerAdminRoutes(router: Router<AdminContext>): void {
  router.add('GET', '/__admin', () => json(200, { endpoints: ADMIN_ENDPOINTS }));
  router.add('POST', '/__admin/tokens', (req, _p, ctx) => {
    const b = body(req);
    const opts: CreateTokenOptions = {
      policies: strings(b.policies), serviceRead: strings(b.serviceRead),
      namespace: typeof b.namespace === 'string' ? b.namespace : undefined,
      description: typeof b.description === 'string' ? b.description : undefined,
      roles: strings(b.roles), nodeIdentities: strings(b.nodeIdentities), serviceIdentities: strings(b.serviceIdentities),
      partition: typeof b.partition === 'string' ? b.partition : undefined,
      checkScopes: b.checkScopes === true,
    };
    try {
      return json(200, createToken(ctx.acl, opts));
    } catch (e) {
      return text(400, (e as Error).message);
    }
  });
  router.add('GET', '/__admin/tokens', (_req, _p, ctx) => json(200, ctx.acl.tokens.map(({ secretDigest: _d, ...t }) => t)));
  router.add('DELETE', '/__admin/tokens/:accessorId', (_req, p, ctx) =>
    (deleteToken(ctx.acl, p.accessorId) ? json(200, {}) : text(404, `token "${p.accessorId}" not found`)));
  router.add('POST', '/__admin/policies', (req, _p, ctx) => {
    const b = body(req);
    if (typeof b.name !== 'string' || !b.name) return text(400, 'name is required');
    if (b.name === 'global-management') return text(400, 'the global-management policy cannot be changed');
    const policy = {
      name: b.name, serviceRead: strings(b.serviceRead) ?? [], serviceWrite: strings(b.serviceWrite) ?? [],
      operatorWrite: b.operatorWrite === true,
    };
    ctx.acl.policies = [...ctx.acl.policies.filter((p) => p.name !== policy.name), policy];
    return json(200, policy);
  });
  router.add('GET', '/__admin/policies', (_req, _p, ctx) => json(200, ctx.acl.policies));
}
