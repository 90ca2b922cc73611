import { Document, PlainResource, toDocument, toPlain } from './jsonapi';
import { Page, PlatformTransport } from './transport';

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

/** An organization as read: camelCase attributes, `id` (= name), relationships as identifiers. */
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
  public list(options: OrganizationListOptions = {}, page?: { number: number; size: number }): Promise<Page<Organization>> {
    return this.client.page('/organizations', listQuery(options), page) as Promise<Page<Organization>>;
  }

  /** Every organization, page by page. */
  public iterate(options: OrganizationListOptions = {}, pageSize?: number): AsyncGenerator<Organization> {
    return this.client.pages('/organizations', listQuery(options), pageSize) as AsyncGenerator<Organization>;
  }

  /** undefined when absent or not visible to the token (the platform does not tell them apart). */
  public async show(name: string): Promise<Organization | undefined> {
    return this.client.getOne(`/organizations/${orgSegment(name)}`) as Promise<Organization | undefined>;
  }

  /** Creates; the answer includes the entitlement set, resolved into `entitlementSet`. */
  public async create(attributes: OrganizationAttributes): Promise<Organization> {
    const res = await this.client.request<Document>('POST', '/organizations', { body: toDocument('organizations', { ...attributes }) });
    return toPlain(res.body.data as any, res.body.included) as Organization;
  }

  /** Updates the organization named `name`; giving `attributes.name` renames it (the id changes). */
  public async update(name: string, attributes: OrganizationAttributes): Promise<Organization> {
    const res = await this.client.request<Document>('PATCH', `/organizations/${orgSegment(name)}`,
      { body: toDocument('organizations', { ...attributes }) });
    return toPlain(res.body.data as any, res.body.included) as Organization;
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

function listQuery(o: OrganizationListOptions): Record<string, string | undefined> {
  return { q: o.q, 'q[email]': o.email, 'q[name]': o.name };
}
