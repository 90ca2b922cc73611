import { PreflightCheck } from '../core/engine/preflight';
import { ApiError } from '../core/http/api-error';
import { HttpClient } from '../core/http/http-client';
import { PlatformPermissions } from './shared/kind-permissions';

/**
 * The organization's `permissions` (one read: the organization, or a page of the list when the plan writes in
 * several; an organization the page does not hold is read by itself): each permission
 * the plan's writes need, as each kind's handler declares it (`permissionsOf`), beside `converge policy`'s text. An organization the token
 * cannot read (404: absent, or no access, which the platform does not tell apart) or without
 * `permissions` cannot be checked.
 */
export const platformPreflight = (permissionsOf: (kind: string) => PlatformPermissions | undefined): PreflightCheck => async ({ items, http }) => {
  const needed = new Map<string, Map<string, string[]>>();
  // An organization this plan creates is its creator's: nothing in it to ask.
  const created = new Set(items.filter((i) => i.kind === 'platform.Organization' && i.action === 'create').map((i) => String(i.spec.name)));
  for (const item of items) {
    for (const { organization, permission } of permissionsOf(item.kind)?.organization?.(item.spec, item.deletes, item.action === 'create') ?? []) {
      if (created.has(organization)) continue;
      const perms = needed.get(organization) ?? new Map<string, string[]>();
      perms.set(permission, [...(perms.get(permission) ?? []), item.address]);
      needed.set(organization, perms);
    }
  }
  const missing: string[] = [];
  const unchecked: string[] = [];
  // Several organizations: one page of the list answers them all (each with its permissions); a single one, or one
  // the page did not hold (more than 100, or a server that pages otherwise), is read by itself.
  const listed = needed.size > 1 ? await permissionsListed(http) : new Map<string, Record<string, unknown>>();
  for (const [organization, perms] of [...needed].sort(([a], [b]) => a.localeCompare(b))) {
    let held: Record<string, unknown> | undefined = listed.get(organization);
    if (!held) {
      try {
        const res = await http.request<{ data?: { attributes?: { permissions?: Record<string, unknown> } } }>({
          method: 'GET', path: `/api/v2/organizations/${encodeURIComponent(organization)}`, accept: [404],
        });
        if (res.status === 404) {
          unchecked.push(`organization "${organization}" answered 404 (absent, or the token may not read it)`);
          continue;
        }
        held = res.body?.data?.attributes?.permissions;
      } catch (e) {
        if (e instanceof ApiError && e.status !== 0) {
          unchecked.push(`organization "${organization}" answered ${e.status}`);
          continue;
        }
        throw e;
      }
    }
    if (!held || typeof held !== 'object') {
      unchecked.push(`organization "${organization}" reports no permissions`);
      continue;
    }
    for (const [permission, addresses] of [...perms].sort(([a], [b]) => a.localeCompare(b))) {
      if (held[permission] === true) continue;
      missing.push(`the platform token lacks "${permission}" in organization "${organization}" (needed by ${[...new Set(addresses)].sort().join(', ')}; ` +
        `its permissions say ${JSON.stringify(held[permission] ?? 'nothing')})`);
    }
  }
  return { missing, ...(unchecked.length ? { couldNotCheck: unchecked.join('; ') } : {}) };
};

/** The first page of the organizations the token sees: each one's permissions by name (its id); empty when refused. */
async function permissionsListed(http: HttpClient): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  try {
    const res = await http.request<{ data?: { id?: string; attributes?: { name?: string; permissions?: Record<string, unknown> } }[] }>({
      method: 'GET', path: '/api/v2/organizations', query: { 'page[number]': 1, 'page[size]': 100 }, accept: [404],
    });
    for (const o of Array.isArray(res.body?.data) ? res.body.data : []) {
      const name = o.id ?? o.attributes?.name;
      if (name && o.attributes?.permissions && typeof o.attributes.permissions === 'object') out.set(name, o.attributes.permissions);
    }
  } catch (e) {
    if (!(e instanceof ApiError) || e.status === 0) throw e;
  }
  return out;
}
