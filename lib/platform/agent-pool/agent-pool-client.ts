import { seg } from '../client/path';
import { Document, PlainResource, ResourceIdentifier, toDocument, toPlain } from '../client/jsonapi';
import { Page, PlatformTransport, RequestOptions } from '../client/transport';

export type AgentStatus = 'idle' | 'busy' | 'exited' | 'errored' | 'unknown';
/** The statuses in which an agent may be deleted. */
export const DELETABLE_AGENT_STATUSES: readonly AgentStatus[] = ['unknown', 'errored', 'exited'];

export interface AgentPoolAttributes {
  readonly name?: string;
  /** @default true (on create and on update) */
  readonly organizationScoped?: boolean;
  /** Workspace ids permitted to use the pool. */
  readonly allowedWorkspaces?: string[];
}

export interface AgentPool extends PlainResource {
  readonly name: string;
  readonly createdAt: string;
  readonly organizationScoped: boolean;
  readonly agentCount: number;
  readonly workspaces: PlainResource[];
  readonly allowedWorkspaces: ResourceIdentifier[];
}

export interface Agent extends PlainResource {
  readonly name: string | null;
  readonly status: AgentStatus;
  readonly ipAddress: string;
  readonly lastPingAt: string;
}

export interface AgentPoolListOptions {
  /** Search by name. */
  readonly q?: string;
  /** `name` or `created-at`, `-` prefix reverses. */
  readonly sort?: 'name' | '-name' | 'created-at' | '-created-at';
  /** Only pools the named workspace may use. */
  readonly allowedWorkspaceName?: string;
}

/** A page of pools, with `meta.status-counts`. */
export interface AgentPoolPage extends Page<AgentPool> {
  readonly statusCounts: { total: number; matching: number };
}

const poolPath = (id: string) => `/agent-pools/${seg(id)}`;

function poolBody(a: AgentPoolAttributes): unknown {
  const { allowedWorkspaces, ...attrs } = a;
  return toDocument('agent-pools', { ...attrs },
    allowedWorkspaces ? { allowedWorkspaces: allowedWorkspaces.map((id) => ({ id, type: 'workspaces' })) } : undefined);
}

function poolQuery(o: AgentPoolListOptions): RequestOptions['query'] {
  return { q: o.q, sort: o.sort, 'filter[allowed_workspaces][name]': o.allowedWorkspaceName };
}

/** Agent pools and their agents (agents are a paid feature: without the entitlement every call is a 404). */
export class AgentPoolsClient {
  constructor(private readonly client: PlatformTransport) {}

  /** One page (default size 20), with the status counts. */
  public async list(organization: string, options: AgentPoolListOptions = {}, page?: { number: number; size: number }): Promise<AgentPoolPage> {
    const q = { ...poolQuery(options), ...(page ? { 'page[number]': page.number, 'page[size]': page.size } : {}) };
    const res = await this.client.request<Document>('GET', `/organizations/${seg(organization)}/agent-pools`, { query: q });
    const list = (res.body.data ?? []) as any[];
    return {
      items: list.map((r) => toPlain(r, res.body.included) as AgentPool),
      pagination: res.body.meta?.pagination, links: res.body.links, statusCounts: res.body.meta?.['status-counts'],
    };
  }

  public iterate(organization: string, options: AgentPoolListOptions = {}, pageSize?: number): AsyncGenerator<AgentPool> {
    return this.client.pages(`/organizations/${seg(organization)}/agent-pools`, poolQuery(options), pageSize) as AsyncGenerator<AgentPool>;
  }

  /** undefined when absent; `includeWorkspaces` resolves the workspaces using the pool. */
  public show(id: string, includeWorkspaces = false): Promise<AgentPool | undefined> {
    return this.client.getOne(poolPath(id), includeWorkspaces ? { include: 'workspaces' } : undefined) as Promise<AgentPool | undefined>;
  }

  public async create(organization: string, attributes: AgentPoolAttributes & { name: string }): Promise<AgentPool> {
    const res = await this.client.request<Document>('POST', `/organizations/${seg(organization)}/agent-pools`, { body: poolBody(attributes) });
    return toPlain(res.body.data as any) as AgentPool;
  }

  public async update(id: string, attributes: AgentPoolAttributes): Promise<AgentPool> {
    const res = await this.client.request<Document>('PATCH', poolPath(id), { body: poolBody(attributes) });
    return toPlain(res.body.data as any) as AgentPool;
  }

  /** Deletes; false when it was already absent. */
  public async destroy(id: string): Promise<boolean> {
    return (await this.client.request('DELETE', poolPath(id), { accept: [404] })).status !== 404;
  }

  /** One page of a pool's agents; `lastPingSince` keeps agents that pinged at or after it. */
  public agents(poolId: string, options: { lastPingSince?: string | Date } = {}, page?: { number: number; size: number }): Promise<Page<Agent>> {
    return this.client.page(`${poolPath(poolId)}/agents`, agentQuery(options), page) as Promise<Page<Agent>>;
  }

  public iterateAgents(poolId: string, options: { lastPingSince?: string | Date } = {}, pageSize?: number): AsyncGenerator<Agent> {
    return this.client.pages(`${poolPath(poolId)}/agents`, agentQuery(options), pageSize) as AsyncGenerator<Agent>;
  }

  public showAgent(id: string): Promise<Agent | undefined> {
    return this.client.getOne(`/agents/${seg(id)}`) as Promise<Agent | undefined>;
  }

  /**
   * Deletes an agent: true when deleted, false when already absent. An agent that is not `unknown`,
   * `errored` or `exited` is refused (ApiError 412).
   */
  public async deleteAgent(id: string): Promise<boolean> {
    return (await this.client.request('DELETE', `/agents/${seg(id)}`, { accept: [404] })).status !== 404;
  }
}

function agentQuery(o: { lastPingSince?: string | Date }): RequestOptions['query'] {
  const since = o.lastPingSince instanceof Date ? o.lastPingSince.toISOString() : o.lastPingSince;
  return { 'filter[last-ping-since]': since };
}
