import { Document, PlainResource, toDocument, toPlain } from '../client/jsonapi';
import { Page, PlatformTransport } from '../client/transport';

/** Attributes of organization create and update (camelCase of the spec's body table). */
export interface OrganizationAttributes {
  readonly name?: string;
  readonly email?: string;
  readonly sessionTimeout?: number | null;
  readonly sessionRemember?: number | null;
  readonly collaboratorAuthPolicy?: 'password' | 'two_factor_mandatory';
  readonly costEstimationEnabled?: boolean;
  readonly sendPassingStatusesForUntriggeredSpeculativePlans?: boolean;
  readonly aggregatedCommitStatusEnabled?: boolean;
  readonly ownersTeamSamlRoleId?: string | null;
  readonly assessmentsEnforced?: boolean;
  readonly allowForceDeleteWorkspaces?: boolean;
  readonly defaultExecutionMode?: 'remote' | 'local' | 'agent';
  readonly defaultAgentPoolId?: string | null;
}

/**
 * An organization as read: camelCase attributes, `id` (= name), relationships as identifiers. `name`
 * is the id: the spec makes the id the name, and a server may leave the attribute out (OTF does).
 */
export interface Organization extends PlainResource {
  readonly name: string;
  readonly externalId: string;
  readonly email: string;
  readonly permissions: Record<string, boolean>;
  readonly defaultAgentPool: { id: string; type: string } | null;
  /** The included entitlement set (after create) or its identifier. */
  readonly entitlementSet: PlainResource;
}

/** An entitlement set: camelCase boolean features and integer-or-null limits; id = organization external id. */
export interface EntitlementSet extends PlainResource {}

export interface OrganizationListOptions {
  /** Search by name and email; takes precedence over `email` and `name`. */
  readonly q?: string;
  readonly email?: string;
  readonly name?: string;
}

/**
 * An organization name as a URL path segment: refuses names that would address another object once
 * a server or proxy normalises the URL (empty, `.`, `..`); encodes the rest (a `/` becomes `%2F`).
 */
function orgSegment(name: string): string {
  if (typeof name !== 'string' || name === '' || name === '.' || name === '..') {
    throw new Error(`organization name "${String(name)}" cannot be used as a URL path segment (empty, "." or "..")`);
  }
  return encodeURIComponent(name);
}

/** Organizations and their entitlement sets. */
export class OrganizationsClient {
  constructor(private readonly client: PlatformTransport) {}

  /** One page; without `page` the unpaginated list of every organization. */
  public async list(options: OrganizationListOptions = {}, page?: { number: number; size: number }): Promise<Page<Organization>> {
    const p = await this.client.page('/organizations', listQuery(options), page);
    return { ...p, items: p.items.map(named) };
  }

  /** Every organization, page by page (an `IncompleteListError` when the server does not page as the API does). */
  public async *iterate(options: OrganizationListOptions = {}, pageSize?: number): AsyncGenerator<Organization> {
    for await (const o of this.client.pages('/organizations', listQuery(options), pageSize)) yield named(o);
  }

  /** undefined when absent or not visible to the token (the platform does not tell them apart). */
  public async show(name: string): Promise<Organization | undefined> {
    const o = await this.client.getOne(`/organizations/${orgSegment(name)}`);
    return o && named(o);
  }

  /** Creates; the answer includes the entitlement set, resolved into `entitlementSet`. */
  public async create(attributes: OrganizationAttributes): Promise<Organization> {
    const res = await this.client.request<Document>('POST', '/organizations', { body: organizationBody(attributes) });
    return named(toPlain(res.body.data as any, res.body.included));
  }

  /** Updates the organization named `name`; giving `attributes.name` renames it (the id changes). */
  public async update(name: string, attributes: OrganizationAttributes): Promise<Organization> {
    const res = await this.client.request<Document>('PATCH', `/organizations/${orgSegment(name)}`, { body: organizationBody(attributes) });
    return named(toPlain(res.body.data as any, res.body.included));
  }

  /** Destroys; false when it was already absent (404). */
  public async destroy(name: string): Promise<boolean> {
    const res = await this.client.request('DELETE', `/organizations/${orgSegment(name)}`, { accept: [404] });
    return res.status !== 404;
  }

  /** The organization's entitlement set; undefined when the organization is absent or not visible. */
  public entitlementSet(name: string): Promise<EntitlementSet | undefined> {
    return this.client.getOne(`/organizations/${orgSegment(name)}/entitlement-set`);
  }
}

/** An organization whose `name` is its id (`data.id`), whether or not the server also sent the attribute. */
function named(o: PlainResource): Organization {
  if (typeof o?.id !== 'string' || !o.id) throw new Error('the platform server answered an organization without an id (data.id, its name)');
  return { ...o, name: o.id } as Organization;
}

/**
 * The create or update document. The default agent pool goes as the attribute the spec names and as
 * the relationship `default-agent-pool`, which the platform's own Go client and OTF send.
 */
function organizationBody(attributes: OrganizationAttributes): unknown {
  const pool = attributes.defaultAgentPoolId;
  return toDocument('organizations', { ...attributes },
    pool === undefined ? undefined : { defaultAgentPool: pool === null ? null : { id: pool, type: 'agent-pools' } });
}

function listQuery(o: OrganizationListOptions): Record<string, string | undefined> {
  return { q: o.q, 'q[email]': o.email, 'q[name]': o.name };
}
