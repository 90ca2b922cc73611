import { EmuRequest, EmuResponse } from '../../core/emulator-kit/types';
import { BASE } from './jsonapi';

/**
 * Whose choices the platform emulator serves where the spec leaves room: `spec` (the spec's own
 * shapes, the default) or `otf`, the choices of a second implementation of the API (OTF, the
 * open-source server of it) that converge must also work against. Like the mesh's `consul-1.16`.
 */
export type PlatformShape = 'spec' | 'otf';

export const PLATFORM_SHAPES: readonly PlatformShape[] = ['spec', 'otf'];

/** The page size the other server always answers, whatever page parameters it is sent. */
const OTHER_PAGE_SIZE = 20;

/** Routes the other server does not have: it answers them as a plain web server does. */
const LACKING: readonly RegExp[] = [
  /\/no-code-modules(\/|$)/,
  /\/registry-modules(\/|$)/,
  /^\/api\/v2\/organizations\/[^/]+\/relationships\//,
  /^\/api\/v2\/oauth-clients\/[^/]+\/relationships\//,
];

/** Organization settings it accepts and never returns (`owners-team-saml-role-id` it answers as `""`). */
const ORG_NOT_RETURNED = ['assessments-enforced', 'aggregated-commit-status-enabled', 'send-passing-statuses-for-untriggered-speculative-plans'];

const text = (status: number, body: string): EmuResponse => ({ status, body, contentType: 'text/plain; charset=utf-8' });

/**
 * The other server's answer to a request before the spec emulator sees it: a route it lacks
 * (`404 page not found`, text/plain), no PATCH of an OAuth client (405); undefined when the
 * request goes on (rewritten by `otherRequest`).
 */
export function otherServerRefusal(req: EmuRequest): EmuResponse | undefined {
  if (!req.path.startsWith(`${BASE}/`)) return undefined;
  if (LACKING.some((r) => r.test(req.path))) return text(404, '404 page not found\n');
  if (req.method === 'PATCH' && /^\/api\/v2\/oauth-clients\/[^/]+$/.test(req.path)) return text(405, '405 method not allowed\n');
  return undefined;
}

/**
 * The request as the spec emulator should see it to answer as the other server does: its page
 * parameters ignored (always the first page of 20); the default agent pool read from the
 * relationship `default-agent-pool`, the attribute ignored; a workspace's Terraform version read from
 * `terraform-version`, `engine-version` ignored.
 */
export function otherRequest(req: EmuRequest): EmuRequest {
  let out = req;
  if (req.method === 'GET') {
    const query = new URLSearchParams(req.query);
    query.set('page[number]', '1');
    query.set('page[size]', String(OTHER_PAGE_SIZE));
    out = { ...out, query };
  }
  if (isWorkspaceWrite(req)) out = { ...out, body: terraformVersionAsEngineVersion(req.body) };
  if ((req.method === 'POST' || req.method === 'PATCH') && /^\/api\/v2\/organizations(\/[^/]+)?$/.test(req.path) && req.body.length) {
    try {
      const body = JSON.parse(req.body.toString('utf8')) as { data?: { attributes?: Record<string, unknown>; relationships?: Record<string, any> } };
      const data = body?.data;
      if (data && typeof data === 'object') {
        const attributes = { ...(data.attributes ?? {}) };
        delete attributes['default-agent-pool-id'];
        const rel = data.relationships?.['default-agent-pool'];
        if (rel && typeof rel === 'object' && 'data' in rel) attributes['default-agent-pool-id'] = rel.data?.id ?? null;
        out = { ...out, body: Buffer.from(JSON.stringify({ ...body, data: { ...data, attributes } })) };
      }
    } catch {
      // Not JSON: the spec emulator refuses it.
    }
  }
  return out;
}

/** A workspace create or update. */
function isWorkspaceWrite(req: EmuRequest): boolean {
  return (req.method === 'POST' && /^\/api\/v2\/organizations\/[^/]+\/workspaces$/.test(req.path))
    || (req.method === 'PATCH' && /^\/api\/v2\/workspaces\/[^/]+$/.test(req.path));
}

/** The other server reads the Terraform version as `terraform-version` and ignores the spec's `engine-version`. */
function terraformVersionAsEngineVersion(body: Buffer): Buffer {
  try {
    const doc = JSON.parse(body.toString('utf8')) as { data?: { attributes?: Record<string, unknown> } };
    const attributes = doc?.data?.attributes;
    if (!attributes || typeof attributes !== 'object') return body;
    const { 'engine-version': _ignored, 'terraform-version': version, ...rest } = attributes;
    const next = version === undefined ? rest : { ...rest, 'engine-version': version };
    return Buffer.from(JSON.stringify({ ...doc, data: { ...doc.data, attributes: next } }));
  } catch {
    return body;
  }
}

/**
 * The spec emulator's answer as the other server gives it: organizations without a `name`
 * attribute (the id is the name) and without the settings it does not keep; unset values as `""`
 * or `"-"`; OAuth clients without the `projects` relationship; workspaces with `terraform-version` for the
 * spec's `engine-version`; a validation error as a 500.
 */
export function otherResponse(res: EmuResponse): EmuResponse {
  let out = res;
  if (res.status === 422) {
    const errs = (res.body as { errors?: Record<string, unknown>[] } | undefined)?.errors ?? [];
    out = { ...out, status: 500, body: { errors: errs.map((e) => ({ ...e, status: '500' })) } };
  }
  const body = out.body as { data?: unknown; included?: unknown[] } | undefined;
  if (!body || typeof body !== 'object' || !('data' in body)) return out;
  const reshape = (r: unknown): unknown => reshapeResource(r as Record<string, any>);
  return {
    ...out,
    body: {
      ...body,
      data: Array.isArray(body.data) ? body.data.map(reshape) : body.data ? reshape(body.data) : body.data,
      ...(body.included ? { included: body.included.map(reshape) } : {}),
    },
  };
}

function reshapeResource(r: Record<string, any>): Record<string, any> {
  if (!r || typeof r !== 'object' || !r.attributes) return r;
  const attributes = { ...r.attributes };
  if (r.type === 'organizations') {
    delete attributes.name;
    for (const k of ORG_NOT_RETURNED) delete attributes[k];
    // Accepted and not kept: always answered in its unset form.
    attributes['owners-team-saml-role-id'] = '';
    return { ...r, attributes };
  }
  if (r.type === 'workspaces') {
    const { 'engine-version': version, ...rest } = attributes;
    return { ...r, attributes: { ...rest, 'terraform-version': version } };
  }
  if (r.type === 'oauth-clients') {
    if (attributes.key === null) attributes.key = '-';
    if (attributes['rsa-public-key'] === null) attributes['rsa-public-key'] = '';
    const { projects: _dropped, ...relationships } = r.relationships ?? {};
    return { ...r, attributes, relationships };
  }
  return r;
}
