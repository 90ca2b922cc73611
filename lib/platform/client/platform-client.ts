import { Clock } from '../../core/clock';
import { tokenHeaderValues } from '../../core/http/api-profile';
import { HttpClient, HttpStats } from '../../core/http/http-client';
import { PLATFORM_API_PROFILE } from '../api-profile';
import { AgentPoolsClient } from '../agent-pool/agent-pool-client';
import { NoCodeModulesClient } from '../no-code/no-code-client';
import { OAuthClientsClient } from '../oauth-client/oauth-client-client';
import { OrganizationsClient } from '../organization/organization-client';
import { SelfHostedClient } from '../organization/self-hosted-client';
import { PlatformTransport } from './transport';
import { ProjectsClient } from '../project/project-client';
import { TeamsClient } from '../team/team-client';
import { variableSetVarsPath, VariablesClient } from '../variable/variable-client';
import { VariableSetsClient } from '../variable-set/variable-set-client';
import { WorkspacesClient } from '../workspace/workspace-client';


/** The platform's published limit: 30 requests per second per user. */
export const PLATFORM_RATE_LIMIT = PLATFORM_API_PROFILE.rateLimit;

export interface PlatformClientOptions {
  /**
   * The platform address without `/api/v2` (the client adds it). An address ending in `/api/v2` is
   * refused, as the CLI's address check refuses it (`PLATFORM_ADDRESS`).
   */
  readonly address: string;
  readonly token: string;
  /** Requests per second. @default 30 */
  readonly rateLimit?: number;
  readonly retries?: number;
  readonly backoffBaseMs?: number;
  /** What time it is and how to wait (tests pass a fake one). @default the system clock */
  readonly clock?: Clock;
}

/**
 * A typed client of the platform API: JSON:API documents in and out, paths below `/api/v2`.
 * Wraps an `HttpClient` that carries the `Authorization: Bearer` header; resource families
 * hang off it (`organizations`, …).
 */
export class PlatformClient extends PlatformTransport {
  /** A client for `{address, token}` with the platform's rate limit. */
  public static create(options: PlatformClientOptions, stats?: HttpStats): PlatformClient {
    const base = options.address.trim().replace(/\/+$/, '');
    if (/\/api\/v2$/.test(base)) {
      throw new Error(`the platform address "${base}" ends in "/api/v2": give the address without "/api/v2" (converge adds it)`);
    }
    const http = new HttpClient({
      api: PLATFORM_API_PROFILE.api,
      rules: PLATFORM_API_PROFILE,
      baseUrl: base,
      authHeaders: tokenHeaderValues(PLATFORM_API_PROFILE.tokenHeaders.names[0], options.token),
      tokenVariable: 'PLATFORM_TOKEN',
      rateLimit: options.rateLimit ?? PLATFORM_RATE_LIMIT,
      retries: options.retries,
      backoffBaseMs: options.backoffBaseMs,
      clock: options.clock,
    }, stats);
    return new PlatformClient(http);
  }

  public readonly organizations: OrganizationsClient;
  public readonly oauthClients: OAuthClientsClient;
  public readonly agentPools: AgentPoolsClient;
  public readonly noCodeModules: NoCodeModulesClient;
  public readonly projects: ProjectsClient;
  /** Teams and their access to workspaces. */
  public readonly teams: TeamsClient;
  public readonly workspaces: WorkspacesClient;
  /** Workspace variables. */
  public readonly variables: VariablesClient;
  /** A variable set's own variables (the same calls, by set id). */
  public readonly variableSetVariables: VariablesClient;
  /** Variable sets and what they apply to. */
  public readonly variableSets: VariableSetsClient;
  /** Module producers and the data retention policy (self-hosted edition). */
  public readonly selfHosted: SelfHostedClient;

  /** @param constructPath the construct the calls are made for, named in errors. */
  constructor(http: HttpClient, constructPath?: string) {
    super(http, constructPath);
    this.organizations = new OrganizationsClient(this);
    this.oauthClients = new OAuthClientsClient(this);
    this.agentPools = new AgentPoolsClient(this);
    this.noCodeModules = new NoCodeModulesClient(this);
    this.selfHosted = new SelfHostedClient(this);
    this.projects = new ProjectsClient(this);
    this.teams = new TeamsClient(this);
    this.workspaces = new WorkspacesClient(this);
    this.variables = new VariablesClient(this);
    this.variableSetVariables = new VariablesClient(this, variableSetVarsPath);
    this.variableSets = new VariableSetsClient(this);
  }

  public close(): Promise<void> {
    return this.http.close();
  }
}
