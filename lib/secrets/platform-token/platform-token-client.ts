import { mountPath, segment } from '../client/engine-client';
import { SecretsClient } from '../client/secrets-client';
import { RoleEngineClient } from '../shared/engine-util';
import { LeaseFields } from '../shared/lease';

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
export interface PlatformTokenCreds extends LeaseFields {
  readonly token: string;
  readonly token_id: string;
  readonly organization?: string;
  readonly team_id?: string;
}

/** Typed calls of the platform-token engine. */
export class PlatformTokenClient extends RoleEngineClient<PlatformTokenRoleData, PlatformTokenRoleInput> {
  constructor(secrets: SecretsClient, constructPath?: string) {
    super(secrets, constructPath, 'role');
  }

  public async readConfig(mount: string): Promise<PlatformTokenConfigData | undefined> {
    return (await this.read<PlatformTokenConfigData>(`${mountPath(mount)}/config`))?.data;
  }

  public async writeConfig(mount: string, input: PlatformTokenConfigInput): Promise<void> {
    await this.call('POST', `${mountPath(mount)}/config`, input);
  }

  public async deleteConfig(mount: string): Promise<void> {
    await this.call('DELETE', `${mountPath(mount)}/config`);
  }

  /** A token of the role: the stored one for organization and team roles, a new leased one for user roles. */
  public creds(mount: string, name: string): Promise<PlatformTokenCreds> {
    return this.credsOf<Omit<PlatformTokenCreds, keyof LeaseFields>>(mount, name);
  }

  /** Replaces the stored token of an organization or team role (a user role: 400). */
  public async rotateRole(mount: string, name: string): Promise<void> {
    await this.call('POST', `${mountPath(mount)}/rotate-role/${segment(name)}`);
  }
}
