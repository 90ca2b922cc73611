import { mountPath, segment } from '../client/engine-client';
import { SecretsClient, SecretsEnvelope } from '../client/secrets-client';

/** Connection as read (`GET {mount}/config/<name>`); the password is never returned. */
export interface DbConnectionData {
  readonly allowed_roles: string[];
  readonly connection_details: { readonly connection_url: string; readonly username: string };
  readonly password_policy: string;
  readonly plugin_name: string;
  readonly plugin_version: string;
  readonly root_credentials_rotate_statements: string[];
  readonly verify_connection?: boolean;
}

/** Connection write parameters; on an existing connection absent fields keep their value. */
export interface DbConnectionInput {
  readonly plugin_name?: string;
  readonly plugin_version?: string;
  readonly verify_connection?: boolean;
  readonly allowed_roles?: string[];
  readonly root_rotation_statements?: string[];
  readonly password_policy?: string;
  readonly connection_url?: string;
  readonly username?: string;
  readonly password?: string;
  readonly disable_escaping?: boolean;
  /** Plugin-specific parameters. */
  readonly [key: string]: unknown;
}

/** Dynamic role as read; ttls in seconds. */
export interface DbRoleData {
  readonly db_name: string;
  readonly creation_statements: string[];
  readonly revocation_statements: string[];
  readonly rollback_statements: string[];
  readonly renew_statements: string[];
  readonly credential_type: string;
  readonly credential_config?: Record<string, string>;
  readonly default_ttl: number;
  readonly max_ttl: number;
}

export interface DbRoleInput {
  readonly db_name?: string;
  readonly default_ttl?: string | number;
  readonly max_ttl?: string | number;
  readonly creation_statements?: string[];
  readonly revocation_statements?: string[];
  readonly rollback_statements?: string[];
  readonly renew_statements?: string[];
  readonly credential_type?: string;
  readonly credential_config?: Record<string, string>;
}

/** Static role as read; `rotation_period` in seconds. */
export interface DbStaticRoleData {
  readonly credential_type: string;
  readonly credential_config?: Record<string, string>;
  readonly db_name: string;
  readonly username: string;
  readonly rotation_statements: string[];
  readonly rotation_period: number;
  readonly last_service_rotation?: string;
}

export interface DbStaticRoleInput {
  readonly db_name?: string;
  readonly username?: string;
  readonly rotation_period?: string | number;
  readonly rotation_statements?: string[];
  readonly credential_type?: string;
  readonly credential_config?: Record<string, string>;
}

/** Generated credentials with their lease (from the envelope). */
export interface DbCredentials {
  readonly username: string;
  readonly password: string;
  readonly lease_id: string;
  readonly lease_duration: number;
  readonly renewable: boolean;
}

/** Static credentials: no lease. */
export interface DbStaticCredentials {
  readonly username: string;
  readonly password: string;
  readonly last_service_rotation: string;
  readonly rotation_period: number;
  readonly ttl: number;
}

/** The real service (OpenBao, Vault) names the spec's `last_service_rotation` `last_vault_rotation`. */
interface RenamedRotation {
  readonly last_vault_rotation?: string;
}

/** Reads the last rotation under either name, as `last_service_rotation`. */
function withServiceRotation<T extends { last_service_rotation?: string } & RenamedRotation>(body: T): T {
  if (body.last_service_rotation !== undefined || body.last_vault_rotation === undefined) return body;
  const { last_vault_rotation: last, ...rest } = body;
  return { ...rest, last_service_rotation: last } as T;
}

/** Typed calls of the database engine. Reads answer undefined when the object is absent (404). */
export class DatabaseClient {
  constructor(private readonly secrets: SecretsClient, private readonly constructPath?: string) {}

  public readConnection(mount: string, name: string): Promise<DbConnectionData | undefined> {
    return this.read(this.path(mount, 'config', name));
  }

  public async writeConnection(mount: string, name: string, input: DbConnectionInput): Promise<void> {
    await this.send('POST', this.path(mount, 'config', name), input);
  }

  public listConnections(mount: string): Promise<string[]> {
    return this.secrets.list(`${mountPath(mount)}/config`, this.constructPath);
  }

  public async deleteConnection(mount: string, name: string): Promise<void> {
    await this.send('DELETE', this.path(mount, 'config', name));
  }

  /** Closes the connection and its plugin and restarts it from the stored configuration. */
  public async resetConnection(mount: string, name: string): Promise<void> {
    await this.send('POST', this.path(mount, 'reset', name));
  }

  /** Changes the root user's password to one only the service knows. */
  public async rotateRoot(mount: string, name: string): Promise<void> {
    await this.send('POST', this.path(mount, 'rotate-root', name));
  }

  public readRole(mount: string, name: string): Promise<DbRoleData | undefined> {
    return this.read(this.path(mount, 'roles', name));
  }

  public async writeRole(mount: string, name: string, input: DbRoleInput): Promise<void> {
    await this.send('POST', this.path(mount, 'roles', name), input);
  }

  public listRoles(mount: string): Promise<string[]> {
    return this.secrets.list(`${mountPath(mount)}/roles`, this.constructPath);
  }

  public async deleteRole(mount: string, name: string): Promise<void> {
    await this.send('DELETE', this.path(mount, 'roles', name));
  }

  /** Creates a database user for a dynamic role; the answer carries its lease. */
  public async generateCredentials(mount: string, role: string): Promise<DbCredentials> {
    const res = await this.secrets.request<SecretsEnvelope<{ username: string; password: string }>>({
      method: 'GET', path: this.path(mount, 'creds', role), constructPath: this.constructPath,
    });
    const b = res.body;
    return { ...b.data, lease_id: b.lease_id, lease_duration: b.lease_duration, renewable: b.renewable };
  }

  public async readStaticRole(mount: string, name: string): Promise<DbStaticRoleData | undefined> {
    const role = await this.read<DbStaticRoleData & RenamedRotation>(this.path(mount, 'static-roles', name));
    return role && withServiceRotation(role);
  }

  public async writeStaticRole(mount: string, name: string, input: DbStaticRoleInput): Promise<void> {
    await this.send('POST', this.path(mount, 'static-roles', name), input);
  }

  public listStaticRoles(mount: string): Promise<string[]> {
    return this.secrets.list(`${mountPath(mount)}/static-roles`, this.constructPath);
  }

  /** Forgets the static role; the database user itself stays. */
  public async deleteStaticRole(mount: string, name: string): Promise<void> {
    await this.send('DELETE', this.path(mount, 'static-roles', name));
  }

  public async staticCredentials(mount: string, name: string): Promise<DbStaticCredentials> {
    const res = await this.secrets.request<SecretsEnvelope<DbStaticCredentials & RenamedRotation>>({
      method: 'GET', path: this.path(mount, 'static-creds', name), constructPath: this.constructPath,
    });
    return withServiceRotation(res.body.data);
  }

  /** Rotates a static role's password now and restarts its rotation period. */
  public async rotateRole(mount: string, name: string): Promise<void> {
    await this.send('POST', this.path(mount, 'rotate-role', name));
  }

  private path(mount: string, section: string, name: string): string {
    return `${mountPath(mount)}/${section}/${segment(name)}`;
  }

  private async read<T>(path: string): Promise<T | undefined> {
    const res = await this.secrets.request<SecretsEnvelope<T>>({ method: 'GET', path, accept: [404], constructPath: this.constructPath });
    return res.status === 404 ? undefined : res.body.data;
  }

  private async send(method: string, path: string, body?: unknown): Promise<void> {
    await this.secrets.request({ method, path, body, constructPath: this.constructPath });
  }
}
