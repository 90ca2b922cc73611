import { Construct } from 'constructs';
import { DataSource } from '../../core/constructs/resource';
import { check } from '../../core/constructs/validation';
import { checkString } from '../prop-checks';
import { PlatformProvider } from '../provider';

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
  /** The agent pool (`apool-…`, e.g. `pool.agentPoolId`). */
  readonly agentPoolId: string;
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
 * Reads the agents of a pool at plan time. Outputs: `agents` (list of `{id, name, status,
 * ipAddress, lastPingAt}`), `ids` and `count`.
 *
 * @example
 * const pool = new platform.AgentPool(stack, 'pool', { organization: 'acme', name: 'on-prem' });
 * new platform.Agents(stack, 'busy-agents', { agentPoolId: pool.agentPoolId, statuses: [platform.AgentStatus.BUSY] });
 */
export class Agents extends DataSource {
  private readonly props: AgentsProps;

  constructor(scope: Construct, id: string, props: AgentsProps) {
    super(scope, id, 'platform.Agents', 'platform', props.provider, props);
    this.props = props;
    checkString(this, 'agentPoolId', props.agentPoolId, { required: true, allowRef: true });
    check(props.statuses === undefined || Array.isArray(props.statuses), this, 'statuses', 'must be a list of AgentStatus');
    checkString(this, 'lastPingSince', props.lastPingSince);
    check(typeof props.agentPoolId !== 'string' || /^apool-/.test(props.agentPoolId), this, 'agentPoolId', `"${props.agentPoolId}" is not an agent pool id (apool-…)`);
    for (const s of props.statuses ?? []) check(Object.values(AgentStatus).includes(s), this, 'statuses', `"${s}" is not an agent status`);
    check(props.lastPingSince === undefined || !Number.isNaN(Date.parse(props.lastPingSince)), this, 'lastPingSince', `"${props.lastPingSince}" is not an ISO 8601 timestamp`);
  }

  /** A reference to one output (`ids`, `count`, `agents`), resolved when converge applies. */
  public attribute(name: string): any {
    return this._attrRef(name);
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    return {
      agentPoolId: this.props.agentPoolId,
      statuses: [...(this.props.statuses ?? [])].sort(),
      lastPingSince: this.props.lastPingSince ?? null,
    };
  }
}
