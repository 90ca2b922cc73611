import { mountPath, segment } from '../client/engine-client';
import { SecretsClient, SecretsEnvelope } from '../client/secrets-client';

/** Directory engine configuration as read (`bindpass` is never returned); durations in seconds. */
export interface DirectoryConfigData {
  readonly binddn: string;
  readonly certificate: string;
  readonly insecure_tls: boolean;
  readonly length: number;
  readonly formatter?: string;
  readonly password_policy?: string;
  readonly max_ttl: number;
  readonly ttl: number;
  readonly starttls: boolean;
  readonly tls_max_version: string;
  readonly tls_min_version: string;
  readonly upndomain: string;
  readonly url: string;
  readonly userdn: string;
  readonly request_timeout?: number;
  readonly last_rotation_tolerance?: number;
}

/** Configuration write parameters; on an existing configuration absent fields keep their value. */
export interface DirectoryConfigInput {
  readonly binddn?: string;
  readonly bindpass?: string;
  readonly url?: string;
  readonly userdn?: string;
  readonly upndomain?: string;
  readonly certificate?: string;
  readonly insecure_tls?: boolean;
  readonly starttls?: boolean;
  readonly tls_min_version?: string;
  readonly tls_max_version?: string;
  readonly request_timeout?: string | number;
  readonly ttl?: string | number;
  readonly max_ttl?: string | number;
  readonly password_policy?: string;
  readonly length?: string | number;
  readonly formatter?: string;
  readonly last_rotation_tolerance?: string | number;
}

export interface DirectoryRoleData {
  readonly service_account_name: string;
  readonly ttl: number;
  readonly password_last_set?: string;
  readonly last_service_rotation?: string;
}

export interface DirectoryRoleInput {
  readonly service_account_name?: string;
  readonly ttl?: string | number;
}

export interface DirectoryCredentials {
  readonly current_password: string;
  readonly last_password?: string;
  readonly username: string;
}

/** Library set as read; ttls in seconds. */
export interface DirectoryLibrarySetData {
  readonly service_account_names: string[];
  readonly ttl: number;
  readonly max_ttl: number;
  readonly disable_check_in_enforcement: boolean;
}

export interface DirectoryLibrarySetInput {
  readonly service_account_names?: string[] | string;
  readonly ttl?: string | number;
  readonly max_ttl?: string | number;
  readonly disable_check_in_enforcement?: boolean;
}

/** A checked-out account with its lease. */
export interface DirectoryCheckOut {
  readonly service_account_name: string;
  readonly password: string;
  readonly lease_id: string;
  readonly lease_duration: number;
  readonly renewable: boolean;
}

export interface DirectoryAccountStatus {
  readonly available: boolean;
  readonly borrower_client_token?: string;
  readonly borrower_entity_id?: string;
}

/** The answer of rotate-root / rotate-role: done, or a warning that one was already in progress. */
export interface DirectoryRotation {
  readonly rotated: boolean;
  readonly warnings: string[];
}

/** Typed calls of the directory engine. Reads answer undefined when the object is absent (404). */
export class DirectoryClient {
  constructor(private readonly secrets: SecretsClient, private readonly constructPath?: string) {}

  public readConfig(mount: string): Promise<DirectoryConfigData | undefined> {
    return this.read(`${mountPath(mount)}/config`);
  }

  public async writeConfig(mount: string, input: DirectoryConfigInput): Promise<void> {
    await this.send('POST', `${mountPath(mount)}/config`, input);
  }

  public async deleteConfig(mount: string): Promise<void> {
    await this.send('DELETE', `${mountPath(mount)}/config`);
  }

  public readRole(mount: string, name: string): Promise<DirectoryRoleData | undefined> {
    return this.read(this.path(mount, 'roles', name));
  }

  public async writeRole(mount: string, name: string, input: DirectoryRoleInput): Promise<void> {
    await this.send('POST', this.path(mount, 'roles', name), input);
  }

  public listRoles(mount: string): Promise<string[]> {
    return this.secrets.list(`${mountPath(mount)}/roles`, this.constructPath);
  }

  public async deleteRole(mount: string, name: string): Promise<void> {
    await this.send('DELETE', this.path(mount, 'roles', name));
  }

  /** A role's current (and last) password, rotated first when its ttl has passed. */
  public async credentials(mount: string, role: string): Promise<DirectoryCredentials> {
    return (await this.data<DirectoryCredentials>('GET', this.path(mount, 'creds', role)))!;
  }

  /** Rotates the bind password to one only the service knows. */
  public rotateRoot(mount: string): Promise<DirectoryRotation> {
    return this.rotation(`${mountPath(mount)}/rotate-root`);
  }

  public rotateRole(mount: string, role: string): Promise<DirectoryRotation> {
    return this.rotation(this.path(mount, 'rotate-role', role));
  }

  public readLibrarySet(mount: string, name: string): Promise<DirectoryLibrarySetData | undefined> {
    return this.read(this.path(mount, 'library', name));
  }

  public async writeLibrarySet(mount: string, name: string, input: DirectoryLibrarySetInput): Promise<void> {
    await this.send('POST', this.path(mount, 'library', name), { name, ...input });
  }

  public listLibrarySets(mount: string): Promise<string[]> {
    return this.secrets.list(`${mountPath(mount)}/library`, this.constructPath);
  }

  public async deleteLibrarySet(mount: string, name: string): Promise<void> {
    await this.send('DELETE', this.path(mount, 'library', name));
  }

  /** Checks out an available account (400 when none is); `ttl` is capped at the set's. */
  public async checkOut(mount: string, set: string, ttl?: string | number): Promise<DirectoryCheckOut> {
    const res = await this.secrets.request<SecretsEnvelope<{ service_account_name: string; password: string }>>({
      method: 'POST', path: `${this.path(mount, 'library', set)}/check-out`, body: ttl === undefined ? {} : { ttl },
      constructPath: this.constructPath,
    });
    const b = res.body;
    return { ...b.data, lease_id: b.lease_id, lease_duration: b.lease_duration, renewable: b.renewable };
  }

  /** Checks accounts in (the caller's own, unless the set disables enforcement); answers those checked in by this call. */
  public async checkIn(mount: string, set: string, accounts?: string[]): Promise<string[]> {
    return this.checkInAt(`${this.path(mount, 'library', set)}/check-in`, accounts);
  }

  /** Forces the check-in of accounts whoever borrowed them. */
  public async manageCheckIn(mount: string, set: string, accounts?: string[]): Promise<string[]> {
    return this.checkInAt(`${mountPath(mount)}/library/manage/${segment(set)}/check-in`, accounts);
  }

  public async status(mount: string, set: string): Promise<Record<string, DirectoryAccountStatus>> {
    return (await this.data<Record<string, DirectoryAccountStatus>>('GET', `${this.path(mount, 'library', set)}/status`))!;
  }

  private async checkInAt(path: string, accounts?: string[]): Promise<string[]> {
    const data = await this.data<{ check_ins: string[] }>('POST', path, accounts === undefined ? {} : { service_account_names: accounts });
    return data!.check_ins;
  }

  private async rotation(path: string): Promise<DirectoryRotation> {
    const res = await this.secrets.request<SecretsEnvelope<unknown> | undefined>({ method: 'POST', path, constructPath: this.constructPath });
    return res.status === 204 ? { rotated: true, warnings: [] } : { rotated: false, warnings: res.body?.warnings ?? [] };
  }

  private path(mount: string, section: string, name: string): string {
    return `${mountPath(mount)}/${section}/${segment(name)}`;
  }

  private async read<T>(path: string): Promise<T | undefined> {
    const res = await this.secrets.request<SecretsEnvelope<T>>({ method: 'GET', path, accept: [404], constructPath: this.constructPath });
    return res.status === 404 ? undefined : res.body.data;
  }

  private async data<T>(method: string, path: string, body?: unknown): Promise<T | undefined> {
    const res = await this.secrets.request<SecretsEnvelope<T>>({ method, path, body, constructPath: this.constructPath });
    return res.body?.data;
  }

  private async send(method: string, path: string, body?: unknown): Promise<void> {
    await this.secrets.request({ method, path, body, constructPath: this.constructPath });
  }
}
