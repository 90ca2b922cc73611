import { Observed, PrefetchWant, Spec, Written } from '../../core/engine/handler';
import { resourceMetadata } from '../../core/schema';
import { Organization as OrganizationDoc, OrganizationAttributes } from './organization-client';
import { IncompleteListError } from '../client/server-checks';
import { dropFieldsNotKept, fromClient, platformClient as client, toClient } from '../shared/handler-util';
import { ORGANIZATION } from './organization.schema';
import { PlatformResourceHandler, namedOrganization } from '../shared/kind-permissions';

/** The request attributes of a spec. `defaultAgentPoolId` is sent only with the agent mode (refused otherwise). */
function attributesOf(spec: Spec): OrganizationAttributes {
  const attrs = toClient(ORGANIZATION, spec);
  if (spec.defaultExecutionMode !== 'agent' || spec.defaultAgentPoolId == null) delete attrs.defaultAgentPoolId;
  return attrs as OrganizationAttributes;
}

/** Organizations a list page holds (the API's largest page). */
const PAGE = 100;

/**
 * The organization as the plan compares it. Settings the server does not return (`assessments-enforced`
 * outside the hosted edition, several on a second server of the API) or answers unset after converge
 * wrote them are compared with the last apply (dropFieldsNotKept).
 */
function observedOf(org: OrganizationDoc, desired?: Spec, prior?: { spec: Spec }): Observed {
  const fields: Spec = { ...fromClient(ORGANIZATION, org), defaultAgentPoolId: org.defaultAgentPool?.id ?? null };
  const keys = Object.keys(ORGANIZATION.fields).filter((k) => k !== 'name' && k !== 'defaultAgentPoolId');
  const notes = dropFieldsNotKept(ORGANIZATION, org, fields, desired, prior, keys);
  return { fields, outputs: outputsOf(org), ...(notes.length ? { notes } : {}) };
}

/** The identity to record: the name the server answered (its `data.id`); never a record without one. */
function identityOf(org: OrganizationDoc, operation: string): string {
  if (typeof org.name !== 'string' || !org.name) throw new Error(`the platform server answered the organization ${operation} without its name (data.id)`);
  return org.name;
}

function outputsOf(org: OrganizationDoc): Record<string, unknown> {
  return { name: org.name, externalId: org.externalId, entitlementSetId: org.entitlementSet?.id ?? org.externalId };
}

/**
 * `platform.Organization`: identity is the name. A rename is an update in place: PATCH the old
 * name with the new one; the id changes.
 */
export const organizationHandler: PlatformResourceHandler = {
  ...resourceMetadata(ORGANIZATION),
  permissions: {
    needs: (s) => `create organizations (any user on the hosted edition, a site administrator on self-hosted); owners team of "${String(s.name)}" to update and destroy it`,
    lookup: (s) => `read organization "${String(s.id)}"`,
    organization: (s, deletes, creates) => (creates || !namedOrganization(s.name) ? [] : [{ organization: String(s.name), permission: deletes ? 'can-destroy' : 'can-update' }]),
  },
  destroyWarning: 'deleting an organization deletes all of its data (workspaces, state, teams, settings); it cannot be undone',

  naturalId(spec: Spec): string | undefined {
    return typeof spec.name === 'string' ? spec.name : undefined;
  },

  importId(id: string): string {
    if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new Error(`organization import id "${id}" must be an organization name (letters, numbers, '-' and '_')`);
    return id;
  },

  async read(ctx, id, desired, prior): Promise<Observed | undefined> {
    const org = await client(ctx).organizations.show(id);
    return org ? observedOf(org, desired, prior) : undefined;
  },

  /**
   * The organization list answers whole organizations, 100 a page: it replaces one read each when
   * its pages are fewer than the organizations wanted (counted from the first page's total).
   */
  async prefetch(ctx, wanted: readonly PrefetchWant[]) {
    const known = new Map<string, Observed | null>();
    if (wanted.length < 2) return known;
    const orgs = client(ctx).organizations;
    const walk = client(ctx).walk('/organizations');
    const first = await orgs.list({}, { number: 1, size: PAGE });
    const pages = Number(first.pagination?.['total-pages'] ?? 1);
    const all = [...first.items];
    // Absence is concluded only from a list known whole: else each organization not listed is read by itself.
    let complete = pages <= 1 || pages <= wanted.length;
    try {
      let next = walk.next(1, first);
      while (complete && next !== null) {
        const page = await orgs.list({}, { number: next, size: PAGE });
        next = walk.next(next, page);
        all.push(...page.items);
      }
    } catch (e) {
      if (!(e instanceof IncompleteListError)) throw e;
      complete = false;
    }
    const total = first.pagination?.['total-count'];
    if (typeof total === 'number' && all.length < total) complete = false;
    const byName = new Map(all.map((o) => [o.name, o]));
    for (const w of wanted) {
      const org = byName.get(w.id);
      if (org) known.set(w.id, observedOf(org, w.desired, w.prior));
      else if (complete) known.set(w.id, null);
    }
    return known;
  },

  async create(ctx, spec): Promise<Written> {
    const org = await client(ctx).organizations.create(attributesOf(spec));
    return { id: identityOf(org, 'create'), outputs: outputsOf(org) };
  },

  async update(ctx, id, spec): Promise<Written> {
    const org = await client(ctx).organizations.update(id, attributesOf(spec));
    return { id: identityOf(org, 'update'), outputs: outputsOf(org) };
  },

  async delete(ctx, id): Promise<void> {
    await client(ctx).organizations.destroy(id);
  },
};
