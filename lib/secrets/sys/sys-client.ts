import { ApiError } from '../../core/http/api-error';
import { encodePath } from '../../core/http/http-client';
import { SecretsClient, SecretsEnvelope } from '../client/secrets-client';

/** A secrets engine mount as `GET sys/mounts/<path>` answers it (the real service's shape; the spec is silent). */
export interface MountInfo {
  readonly type: string;
  readonly description: string;
  /** Seconds; 0: the system's default. */
  readonly config: { readonly default_lease_ttl: number; readonly max_lease_ttl: number };
  /** Engine options (`version` of a KV engine); null for the built-in mounts. */
  readonly options: Record<string, string> | null;
  readonly accessor?: string;
}

/** What `POST sys/mounts/<path>` takes. */
export interface MountInput {
  readonly type: string;
  readonly description: string;
  readonly config: { readonly default_lease_ttl: string; readonly max_lease_ttl: string };
  readonly options: Record<string, string>;
}

/** What `POST sys/mounts/<path>/tune` takes: only what changes in place. */
export interface MountTuneInput {
  readonly description?: string;
  readonly default_lease_ttl?: string;
  readonly max_lease_ttl?: string;
  readonly options?: Record<string, string>;
}

/** The secrets engines' table (`sys/mounts`) or the auth methods' (`sys/auth`). */
export type MountTableName = 'mounts' | 'auth';

/** An ACL policy as `GET sys/policies/acl/<name>` answers it. */
export interface AclPolicyInfo {
  readonly name: string;
  readonly policy: string;
}

/**
 * OpenBao's answer for a path where nothing is mounted: 400 `No secret engine mount at <path>/`
 * (`No auth engine at <path>/` for an auth method), not a 404: read as absent.
 */
const NO_MOUNT = /^No (secret engine mount|auth engine) at /;

/**
 * The system backend's mount table and ACL policies (`sys/mounts`, `sys/policies/acl`), served
 * as the real service serves them; the spec does not name these endpoints.
 */
export class SysClient {
  constructor(private readonly client: SecretsClient, private readonly constructPath?: string) {}

  /** The mount at `path` (`table` `auth`: the auth method), or undefined when nothing is mounted there. */
  public async readMount(path: string, table: MountTableName = 'mounts'): Promise<MountInfo | undefined> {
    try {
      const res = await this.client.request<SecretsEnvelope<MountInfo>>({
        method: 'GET', path: `sys/${table}/${encodePath(path)}`, accept: [404], constructPath: this.constructPath,
      });
      return res.status === 404 ? undefined : res.body.data;
    } catch (e) {
      if (e instanceof ApiError && e.status === 400 && e.apiMessages.some((m) => NO_MOUNT.test(m))) return undefined;
      throw e;
    }
  }

  /**
   * Every mount of the table, by path without its trailing slash (`GET sys/mounts`, `GET sys/auth`): each
   * entry as `readMount` answers it (checked against OpenBao 2.7: accessor, config, options alike).
   */
  public async listMounts(table: MountTableName = 'mounts'): Promise<Map<string, MountInfo>> {
    const res = await this.client.request<SecretsEnvelope<Record<string, MountInfo>>>({ method: 'GET', path: `sys/${table}`, constructPath: this.constructPath });
    return new Map(Object.entries(res.body.data ?? {}).map(([p, m]) => [p.replace(/\/+$/, ''), m]));
  }

  public async enableMount(path: string, body: MountInput, table: MountTableName = 'mounts'): Promise<void> {
    await this.client.request({ method: 'POST', path: `sys/${table}/${encodePath(path)}`, body, constructPath: this.constructPath });
  }

  public async tuneMount(path: string, body: MountTuneInput, table: MountTableName = 'mounts'): Promise<void> {
    await this.client.request({ method: 'POST', path: `sys/${table}/${encodePath(path)}/tune`, body, constructPath: this.constructPath });
  }

  /** Unmounts (and drops everything below it); nothing mounted there is success, as on the service. */
  public async disableMount(path: string, table: MountTableName = 'mounts'): Promise<void> {
    await this.client.request({ method: 'DELETE', path: `sys/${table}/${encodePath(path)}`, accept: [404], constructPath: this.constructPath });
  }

  /** The policy named `name`, or undefined (404). */
  public async readPolicy(name: string): Promise<AclPolicyInfo | undefined> {
    const res = await this.client.request<SecretsEnvelope<AclPolicyInfo>>({
      method: 'GET', path: `sys/policies/acl/${encodePath(name)}`, accept: [404], constructPath: this.constructPath,
    });
    return res.status === 404 ? undefined : res.body.data;
  }

  public async writePolicy(name: string, policy: string): Promise<void> {
    await this.client.request({ method: 'POST', path: `sys/policies/acl/${encodePath(name)}`, body: { policy }, constructPath: this.constructPath });
  }

  public async deletePolicy(name: string): Promise<void> {
    await this.client.request({ method: 'DELETE', path: `sys/policies/acl/${encodePath(name)}`, accept: [404], constructPath: this.constructPath });
  }
}
