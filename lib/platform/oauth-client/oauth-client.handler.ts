import { Candidate, HandlerContext, Observed, PrefetchWant, Spec, Written } from '../../core/engine/handler';
import { ApiError } from '../../core/http/api-error';
import { resourceMetadata } from '../../core/schema';
import { stringSet } from '../../core/string-set';
import { OAuthClient as OAuthClientDoc, OAuthClientCreate, OAuthClientUpdate } from './oauth-client-client';
import { NoSuchEndpointError } from '../client/server-checks';
import { dropFieldsNotKept, fromClient, platformClient, prefetchByOrganization, toClient } from '../shared/handler-util';
import { OAUTH_CLIENT } from './oauth-client.schema';
import { PlatformResourceHandler, inOrganization } from '../shared/kind-permissions';

/**
 * A client as the plan compares it (from a read or from its organization's list): projects are
 * identifiers. What the server does not report (the organization, the projects: a second server of
 * the API has no projects) is left out, and so compared with what the last apply wrote.
 */
function observedOf(c: OAuthClientDoc, desired?: Spec, prior?: { spec: Spec }): Observed {
  const projects = Array.isArray(c.projects) ? c.projects.map((p) => p.id) : undefined;
  const fields: Spec = fromClient(OAUTH_CLIENT, { ...c, projects });
  if (typeof c.organization?.id === 'string') fields.organization = c.organization.id;
  if (!projects) delete fields.projects;
  const notes = dropFieldsNotKept(OAUTH_CLIENT, c, fields, desired, prior, ['name', 'key', 'rsaPublicKey', 'organizationScoped']);
  return { fields, outputs: outputsOf(c), ...(notes.length ? { notes } : {}) };
}

/** What the update body takes (the rest replaces the client); the secret only when it changed (it is never read back). */
function updateOf(spec: Spec, secretChanged: boolean): OAuthClientUpdate {
  const { name, key, rsaPublicKey, organizationScoped, secret } = toClient(OAUTH_CLIENT, spec) as Record<string, any>;
  return { name, key, rsaPublicKey, organizationScoped, ...(secretChanged ? { secret } : {}) };
}

function outputsOf(c: OAuthClientDoc): Record<string, unknown> {
  return { id: c.id, oauthTokenId: c.oauthTokens?.[0]?.id ?? null, callbackUrl: c.callbackUrl, connectPath: c.connectPath };
}

/**
 * `platform.OAuthClient`: identity is the server-assigned `oc-…`. The token string, private key and
 * secret are write-only (never returned): the engine compares them by HMAC. Projects are kept in
 * sync by attach and detach.
 */
export const oauthClientHandler: PlatformResourceHandler = {
  ...resourceMetadata(OAUTH_CLIENT),
  permissions: {
    needs: (s) => `manage VCS settings in organization "${String(s.organization)}"`,
    lookup: (s) => `read OAuth client ${String(s.id)} (manage VCS settings in its organization)`,
    organization: (s) => inOrganization(s, 'can-update-oauth'),
  },
  destroyWarning: 'replacing or destroying an OAuth client unlinks every workspace that uses it from its repository; they must be linked again by hand',

  naturalId(): undefined {
    return undefined;
  },

  /** After a crash between create and record: the organization's client with the same name, provider and URL. */
  async find(ctx, spec): Promise<Candidate[]> {
    // The organization may not exist yet (it is created in the same apply): then neither does the client.
    if (!(await platformClient(ctx).organizations.show(String(spec.organization)))) return [];
    const found: Candidate[] = [];
    for await (const c of platformClient(ctx).oauthClients.iterate(String(spec.organization))) {
      if (c.name === spec.name && c.serviceProvider === spec.serviceProvider && c.httpUrl === spec.httpUrl) found.push({ id: c.id, createdAt: c.createdAt });
    }
    return found;
  },

  /** The server's id: `oc-…` on the platform, whatever another server of the API assigns; never `<organization>/<name>` (names are not unique). */
  importId(id: string): string {
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(id)) {
      throw new Error(`OAuth client import id "${id}" must be an OAuth client id (oc-… on the platform): names are not unique`);
    }
    return id;
  },

  async read(ctx, id, desired, prior): Promise<Observed | undefined> {
    const c = await platformClient(ctx).oauthClients.show(id);
    return c ? observedOf(c, desired, prior) : undefined;
  },

  /** Where an organization holds two or more of the clients wanted, one list of its clients answers them all. */
  async prefetch(ctx, wanted: readonly PrefetchWant[]) {
    return prefetchByOrganization(wanted, async (organization) => {
      const found = new Map<string, Observed>();
      const byId = new Map(wanted.map((w) => [w.id, w]));
      for await (const c of platformClient(ctx).oauthClients.iterate(organization)) found.set(c.id, observedOf(c, byId.get(c.id)?.desired, byId.get(c.id)?.prior));
      return found;
    });
  },


  async create(ctx, spec): Promise<Written> {
    // Absent optional attributes (null in the spec) are left out of the body: the platform defaults them.
    const attrs = Object.fromEntries(Object.entries(toClient(OAUTH_CLIENT, spec)).filter(([, v]) => v !== null));
    const c = await platformClient(ctx).oauthClients.create(String(spec.organization), attrs as unknown as OAuthClientCreate);
    return { id: c.id, outputs: outputsOf(c) };
  },

  async update(ctx, id, spec, changes, prior): Promise<Written> {
    const api = platformClient(ctx).oauthClients;
    const secretChanged = changes.some((c) => c.path === 'secret' || c.path.startsWith('secret.'));
    let updated: OAuthClientDoc;
    try {
      updated = await api.update(id, updateOf(spec, secretChanged));
    } catch (e) {
      // A second server of the API (OTF) has no PATCH of an OAuth client: say so, never a bare 405.
      if ((e instanceof ApiError && e.status === 405) || e instanceof NoSuchEndpointError) {
        throw new Error(`${ctx.address}: the platform server at ${ctx.http.address} does not update OAuth clients in place (${e.message}); `
          + `a change of ${changes.map((c) => c.path).join(', ')} cannot be made there: change a field that replaces the client (httpUrl, apiUrl, oauthToken), or destroy and create it`);
      }
      throw e;
    }
    // Projects the server does not report: as the last apply left them.
    const current = Array.isArray(updated.projects) ? updated.projects.map((p) => p.id) : stringSet((prior?.spec.projects ?? []) as string[]);
    await syncProjects(ctx, id, current, stringSet((spec.projects ?? []) as string[]));
    // The PATCH answers the client; the projects are no output: nothing to read again.
    return { id, outputs: outputsOf(updated) };
  },

  async delete(ctx, id): Promise<void> {
    await platformClient(ctx).oauthClients.destroy(id);
  },
};

/** Attaches the projects missing and detaches the ones no longer wanted. */
async function syncProjects(ctx: HandlerContext, id: string, current: string[], wanted: string[]): Promise<void> {
  const api = platformClient(ctx).oauthClients;
  const attach = wanted.filter((p) => !current.includes(p));
  const detach = current.filter((p) => !wanted.includes(p));
  if (attach.length) await api.attachProjects(id, attach);
  if (detach.length) await api.detachProjects(id, detach);
}
