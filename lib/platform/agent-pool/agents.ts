import { Construct } from 'constructs';
import { DataSource } from '../../core/constructs/resource';
import { KindSchema } from '../../core/schema';
import { PlatformProvider } from '../provider';
import { refKey, useReference } from '../shared/references';
import { IAgentPool } from './agent-pool';
import { AGENTS } from './agents.schema';

/** Status of an agent. */
export enum AgentStatus {
  /** Waiting for work. */
  IDLE = 'idle',
  /** Running an operation. */
  BUSY = 'busy',
  /** Stopped. */
  EXITED = 'exited',
  /** Failed. */
  ERRORED = 'errored',
  /** Not heard from. */
  UNKNOWN = 'unknown',
}

/** Props of the Agents data source. */
export interface AgentsProps {
  /** The agent pool (an `AgentPool`, or `AgentPool.fromName`). */
  readonly agentPool: IAgentPool;
  /**
   * Keep only agents in these statuses.
   * @default - every status
   */
  readonly statuses?: AgentStatus[];
  /**
   * Keep only agents that pinged at or after this ISO 8601 timestamp (`filter[last-ping-since]`).
   * @default - no filter
   */
  readonly lastPingSince?: string;
  /**
   * The platform provider to use.
   * @default - the stack's platform provider, else the standard environment variables
   */
  readonly provider?: PlatformProvider;
}

/**
 * Reads the agents of a pool at plan time: their ids (`ids`), how many (`count`); each agent's
 * `{id, name, status, ipAddress, lastPingAt}` shows in the plan and state (output `agents`).
 *
 * @example
 * const pool = new platform.AgentPool(stack, 'pool', { organization: platform.Organization.fromName(stack, 'acme', 'acme'), name: 'on-prem' });
 * new platform.Agents(stack, 'busy-agents', { agentPool: pool, statuses: [platform.AgentStatus.BUSY] });
 */
export class Agents extends DataSource {
  constructor(scope: Construct, id: string, props: AgentsProps) {
    super(scope, id, AGENTS.kind, AGENTS.api, props.provider, props);
    useReference(this, 'agentPool', props.agentPool, 'agentPoolId', 'an agent pool (an AgentPool, or AgentPool.fromName)');
  }

  /** The ids (`agent-…`) of the agents read, resolved when converge plans. */
  public get ids(): string[] {
    return this._attrList('ids');
  }

  /** How many agents were read, resolved when converge plans. */
  public get count(): number {
    return this._attrNumber('count');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return AGENTS;
  }

  /** @internal */
  protected _schemaProps(props: Record<string, any>): Record<string, any> {
    return { ...props, agentPoolId: refKey(props.agentPool, 'agentPoolId') };
  }
}
