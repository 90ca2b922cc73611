import { EngineClient, mountPath, segment } from '../client/engine-client';
import { SecretsEnvelope } from '../client/secrets-client';

/** Configuration as read: never the token. */
export interface PlatformTokenConfigData {
  readonly address: string;
  readonly base_path: string;
}

export interface PlatformTokenConfigInput {
  readonly address?: string;
  readonly token?: string;
}

/** A role as read; ttls in seconds. */
export interface PlatformTokenRoleData {
  readonly name: string;
  readonly organization?: string;
  readonly team_id?: string;
  readonly user_id?: string;
  readonly ttl: number;
  readonly max_ttl: number;
}

/** A role: one of organization (with team_id for a team), or user_id. */
export interface PlatformTokenRoleInput {
  readonly organization?: string;
  readonly team_id?: string;
  readonly user_id?: string;
  readonly ttl?: string | number;
  readonly max_ttl?: string | number;
}

/** Credentials with their envelope: leased for user roles, not for organization and team roles. */
export interface PlatformTokenCreds {
  readonly token: string;
  readonly token_id: string;
  readonly organization?: string;
  readonly team_id?: string;
  readonly lease_id: string;
  readonly lease_duration: number;
  readonly renewable: boolean;
}

/** Typed calls of the platform-token engine. */
export class PlatformTokenClient extends EngineClient {
  public async readConfig(mount: string): Promise<PlatformTokenConfigData | undefined> {
    return (await this.read<PlatformTokenConfigData>(`${mountPath(mount)}/config`))?.data;
  }

  public async writeConfig(mount: string, input: PlatformTokenConfigInput): Promise<void> {
    await this.call('POST', `${mountPath(mount)}/config`, input);
  }

  public async deleteConfig(mount: string): Promise<void> {
    await this.call('DELETE', `${mountPath(mount)}/config`);
  }

  public async readRole(mount: string, name: string): Promise<PlatformTokenRoleData | undefined> {
    return (await this.read<PlatformTokenRoleData>(this.rolePath(mount, name)))?.data;
  }

  public async writeRole(mount: string, name: string, input: PlatformTokenRoleInput): Promise<void> {
    await this.call('POST', this.rolePath(mount, name), input);
  }

  /** Role names; empty when none. */
  public listRoles(mount: string): Promise<string[]> {
    return this.names(`${mountPath(mount)}/role`);
  }

  /** Deletes a role; success when absent. */
  public async deleteRole(mount: string, name: string): Promise<void> {
    await this.call('DELETE', this.rolePath(mount, name));
  }

  /** A token of the role: the stored one for organization and team roles, a new leased one for user roles. */
  public async creds(mount: string, name: string): Promise<PlatformTokenCreds> {
    const e = (await this.call<{ token: string; token_id: string; organization?: string; team_id?: string }>(
      'GET', `${mountPath(mount)}/creds/${segment(name)}`)) as SecretsEnvelope<{ token: string; token_id: string }>;
    return { ...e.data, lease_id: e.lease_id, lease_duration: e.lease_duration, renewable: e.renewable };
  }

  /** Replaces the stored token of an organization or team role (a user role: 400). */
  public async rotateRole(mount: string, name: string): Promise<void> {
    await this.call('POST', `${mountPath(mount)}/rotate-role/${segment(name)}`);
  }

  private rolePath(mount: string, name: string): string {
    return `${mountPath(mount)}/role/${segment(name)}`;
  }
}
