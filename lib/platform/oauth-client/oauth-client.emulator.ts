import { createHash } from 'crypto';
import { Router } from '../../core/emulator-kit/router';
import { EmuRequest, EmuResponse } from '../../core/emulator-kit/types';
import { canAccess, canDo, PlatformContext, visibleOrganization } from '../emulator/context';
import {
  ApiFailure, badRequest, BASE, doc, includes, listDocument, notFound, pageRequest, readData, readIdentifiers,
  relationshipData, unprocessable,
} from '../emulator/jsonapi';
import { newId, OAuthClientRecord } from '../emulator/state';

/** The provider identifiers (the real ones, and the spec's anonymised stand-ins for them) and their display names. */
export const SERVICE_PROVIDERS: Record<string, string> = {
  provider_a: 'Provider A',
  provider_a_enterprise: 'Provider A Enterprise',
  provider_b_hosted: 'Provider B',
  provider_b_community_edition: 'Provider B Community Edition',
  provider_b_enterprise_edition: 'Provider B Enterprise Edition',
  provider_c_server: 'Provider C Server',
  github: 'GitHub',
  github_enterprise: 'GitHub Enterprise',
  gitlab_hosted: 'GitLab.com',
  gitlab_community_edition: 'GitLab Community Edition',
  gitlab_enterprise_edition: 'GitLab Enterprise Edition',
  ado_server: 'Azure DevOps Server',
};

/** Attributes only a request carries; they never appear in an answer. */
export const REQUEST_ONLY = ['oauth-token-string', 'private-key', 'secret'] as const;

const INCLUDES = ['oauth_tokens', 'projects'];

export function registerOAuthClientRoutes(router: Router<PlatformContext>): void {
  router.add('GET', `${BASE}/organizations/:org/oauth-clients`, list);
  router.add('POST', `${BASE}/organizations/:org/oauth-clients`, create);
  router.add('GET', `${BASE}/oauth-clients/:id`, show);
  router.add('PATCH', `${BASE}/oauth-clients/:id`, update);
  router.add('DELETE', `${BASE}/oauth-clients/:id`, (_req, p, ctx) => {
    const c = managed(ctx, p.id);
    delete ctx.state.oauthClients[c.id];
    return { status: 204 };
  });
  router.add('POST', `${BASE}/oauth-clients/:id/relationships/projects`, (req, p, ctx) => {
    const c = managed(ctx, p.id);
    const ids = projectIds(ctx, c.organizationId, readIdentifiers(req, 'projects'));
    for (const id of ids) if (!c.projects.includes(id)) c.projects.push(id);
    return { status: 204 };
  });
  router.add('DELETE', `${BASE}/oauth-clients/:id/relationships/projects`, (req, p, ctx) => {
    const c = managed(ctx, p.id);
    const ids = projectIds(ctx, c.organizationId, readIdentifiers(req, 'projects'));
    c.projects = c.projects.filter((id) => !ids.includes(id));
    return { status: 204 };
  });
}

function list(req: EmuRequest, p: Record<string, string>, ctx: PlatformContext): EmuResponse {
  const org = visibleOrganization(ctx, p.org);
  if (!org) return notFound();
  const clients = Object.values(ctx.state.oauthClients)
    .filter((c) => c.organizationId === org.externalId)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  // Without either page parameter the list is unpaginated and holds every client.
  return listDocument(clients, pageRequest(req.query, true), req, (c) => oauthClientResource(c, ctx));
}

function show(req: EmuRequest, p: Record<string, string>, ctx: PlatformContext): EmuResponse {
  const c = visible(ctx, p.id);
  if (!c) return notFound();
  const wanted = includes(req.query);
  const bad = wanted.filter((i) => !INCLUDES.includes(i));
  if (bad.length) return badRequest(`Invalid include parameter: ${bad.join(',')} (allowed: ${INCLUDES.join(', ')})`);
  const included: unknown[] = [];
  if (wanted.includes('oauth_tokens')) included.push(oauthTokenResource(c));
  if (wanted.includes('projects')) for (const id of c.projects) included.push(projectResource(ctx, id));
  return doc(200, { data: oauthClientResource(c, ctx), ...(wanted.length ? { included } : {}) });
}

function create(req: EmuRequest, p: Record<string, string>, ctx: PlatformContext): EmuResponse {
  const org = visibleOrganization(ctx, p.org);
  if (!org || !canDo(ctx, org, 'manage-vcs')) return notFound();
  const { attributes: a, relationships } = readData(req, 'oauth-clients');
  const problems: string[] = [];
  const str = (k: string, required: boolean): string | null => {
    const v = a[k];
    if (v === undefined || v === null || v === '') {
      if (required) problems.push(`${k} can't be blank`);
      return null;
    }
    if (typeof v !== 'string') { problems.push(`${k} must be a string`); return null; }
    return v;
  };
  const provider = str('service-provider', true);
  if (provider !== null && !(provider in SERVICE_PROVIDERS)) {
    problems.push(`service-provider must be one of ${Object.keys(SERVICE_PROVIDERS).join(', ')}`);
  }
  // The real platform takes a token string without a key (its own Go client sends none).
  const key = str('key', false);
  const httpUrl = str('http-url', true);
  const apiUrl = str('api-url', true);
  const tokenString = str('oauth-token-string', true);
  const privateKey = str('private-key', provider === 'provider_c_server' || provider === 'ado_server');
  const rsaPublicKey = str('rsa-public-key', false);
  // The data-center edition pairs the secret (its application link's private key) with the public key.
  const secret = str('secret', rsaPublicKey !== null);
  for (const k of ['http-url', 'api-url']) {
    if (typeof a[k] === 'string' && a[k] && !/^https?:\/\/\S+$/.test(a[k] as string)) problems.push(`${k} must be an http(s) URL`);
  }
  const name = a.name === undefined ? null : a.name;
  if (name !== null && typeof name !== 'string') problems.push('name must be a string or null');
  const scoped = a['organization-scoped'] ?? true;
  if (typeof scoped !== 'boolean') problems.push('organization-scoped must be a boolean');
  if (problems.length) return unprocessable(...problems);
  const projects = projectIds(ctx, org.externalId, identifiers(relationshipData(relationships, 'projects') ?? [], 'projects'));
  const digests: Record<string, string> = {};
  for (const [k, v] of [['oauth-token-string', tokenString], ['private-key', privateKey], ['secret', secret]] as const) {
    if (v !== null) digests[k] = createHash('sha256').update(v).digest('hex');
  }
  const c: OAuthClientRecord = {
    id: newId(ctx.state, 'oc'), organizationId: org.externalId, createdAt: new Date().toISOString(),
    serviceProvider: provider!, name: name as string | null, key, httpUrl: httpUrl!, apiUrl: apiUrl!,
    rsaPublicKey, organizationScoped: scoped as boolean, projects, oauthTokenId: newId(ctx.state, 'ot'), digests,
  };
  ctx.state.oauthClients[c.id] = c;
  return doc(201, { data: oauthClientResource(c, ctx) });
}

function update(req: EmuRequest, p: Record<string, string>, ctx: PlatformContext): EmuResponse {
  const c = managed(ctx, p.id);
  const { attributes: a, relationships } = readData(req, 'oauth-clients');
  const problems: string[] = [];
  if ('name' in a && a.name !== null && typeof a.name !== 'string') problems.push('name must be a string or null');
  if ('key' in a && a.key !== null && (typeof a.key !== 'string' || !a.key)) problems.push('key must be a non-empty string or null');
  if ('secret' in a && a.secret !== null && typeof a.secret !== 'string') problems.push('secret must be a string');
  if ('rsa-public-key' in a && a['rsa-public-key'] !== null && typeof a['rsa-public-key'] !== 'string') problems.push('rsa-public-key must be a string');
  if ('organization-scoped' in a && typeof a['organization-scoped'] !== 'boolean') problems.push('organization-scoped must be a boolean');
  if (problems.length) return unprocessable(...problems);
  const rel = relationshipData(relationships, 'projects');
  const projects = rel === undefined ? undefined : projectIds(ctx, c.organizationId, identifiers(rel, 'projects'));
  // Attributes the update body does not name (service-provider, URLs, token string) are ignored, as the platform does.
  if ('name' in a) c.name = a.name as string | null;
  if ('key' in a) c.key = a.key as string | null;
  if ('secret' in a) {
    if (a.secret === null) delete c.digests.secret;
    else c.digests.secret = createHash('sha256').update(a.secret as string).digest('hex');
  }
  if ('rsa-public-key' in a) c.rsaPublicKey = a['rsa-public-key'] as string | null;
  if ('organization-scoped' in a) c.organizationScoped = a['organization-scoped'] as boolean;
  if (projects !== undefined) c.projects = projects; // an empty array clears every assignment
  return doc(200, { data: oauthClientResource(c, ctx) });
}

function identifiers(data: unknown, type: string): string[] {
  if (!Array.isArray(data)) throw new ApiFailure(unprocessable(`data.relationships.${type}.data must be an array`));
  return data.map((d, i) => {
    if (typeof d !== 'object' || d === null || typeof (d as any).id !== 'string' || (d as any).type !== type) {
      throw new ApiFailure(unprocessable(`data.relationships.${type}.data[${i}] must be {"id": …, "type": "${type}"}`));
    }
    return (d as any).id as string;
  });
}

/** The ids, checked to be projects of the organization (422 naming the unknown ones). */
function projectIds(ctx: PlatformContext, organizationId: string, ids: string[]): string[] {
  const unknown = ids.filter((id) => ctx.state.projects[id]?.organizationId !== organizationId);
  if (unknown.length) throw new ApiFailure(unprocessable(...unknown.map((id) => `project "${id}" not found`)));
  return [...new Set(ids)];
}

function visible(ctx: PlatformContext, id: string): OAuthClientRecord | undefined {
  const c = ctx.state.oauthClients[id];
  const org = c && ctx.state.organizations[c.organizationId];
  return c && org && canAccess(ctx, org) ? c : undefined;
}

/** The client when the caller may manage VCS settings of its organization; else a 404 failure. */
function managed(ctx: PlatformContext, id: string): OAuthClientRecord {
  const c = visible(ctx, id);
  if (!c || !canDo(ctx, ctx.state.organizations[c.organizationId], 'manage-vcs')) throw new ApiFailure(notFound());
  return c;
}

export function oauthClientResource(c: OAuthClientRecord, ctx: PlatformContext): Record<string, unknown> {
  const org = ctx.state.organizations[c.organizationId];
  const self = `${BASE}/oauth-clients/${c.id}`;
  const orgPath = `${BASE}/organizations/${encodeURIComponent(org.name)}`;
  return {
    id: c.id,
    type: 'oauth-clients',
    attributes: {
      'created-at': c.createdAt,
      'callback-url': `https://app.emulator.invalid/auth/${uuidOf(c.id)}/callback`,
      'connect-path': `/auth/${uuidOf(c.id)}?organization_id=${encodeURIComponent(org.externalId)}`,
      'service-provider': c.serviceProvider,
      'service-provider-display-name': SERVICE_PROVIDERS[c.serviceProvider],
      name: c.name,
      'http-url': c.httpUrl,
      'api-url': c.apiUrl,
      key: c.key,
      'rsa-public-key': c.rsaPublicKey,
      'organization-scoped': c.organizationScoped,
    },
    relationships: {
      organization: { data: { id: org.name, type: 'organizations' }, links: { related: orgPath } },
      projects: { data: c.projects.map((id) => ({ id, type: 'projects' })) },
      'oauth-tokens': { data: [{ id: c.oauthTokenId, type: 'oauth-tokens' }], links: { related: `${self}/oauth-tokens` } },
    },
    links: { self },
  };
}

/** A stable UUID-looking part derived from the id (the callback URL of a client never changes). */
function uuidOf(id: string): string {
  const h = createHash('sha1').update(id).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

function oauthTokenResource(c: OAuthClientRecord): Record<string, unknown> {
  return {
    id: c.oauthTokenId,
    type: 'oauth-tokens',
    attributes: { uid: uuidOf(c.oauthTokenId), 'created-at': c.createdAt, 'has-ssh-key': 'private-key' in c.digests, 'service-provider-user': 'emulator' },
    relationships: { 'oauth-client': { data: { id: c.id, type: 'oauth-clients' }, links: { related: `${BASE}/oauth-clients/${c.id}` } } },
    links: { self: `${BASE}/oauth-tokens/${c.oauthTokenId}` },
  };
}

export function projectResource(ctx: PlatformContext, id: string): Record<string, unknown> {
  const p = ctx.state.projects[id];
  return { id, type: 'projects', attributes: { name: p?.name ?? null }, links: { self: `${BASE}/projects/${id}` } };
}

