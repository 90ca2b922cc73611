import { EngineClient, mountPath, segment } from '../client/engine-client';

/** Access configuration as read: address and scheme only. */
export interface MeshAccessData {
  readonly address: string;
  readonly scheme: string;
}

export interface MeshAccessInput {
  /** `host:port`. */
  readonly address: string;
  /** @default 'http' */
  readonly scheme?: string;
  /** A management token; omitted: the service bootstraps the mesh's ACL system. */
  readonly token?: string;
  readonly ca_cert?: string;
  readonly client_cert?: string;
  readonly client_key?: string;
}

/** A role as read; ttls in seconds. */
export interface MeshRoleData {
  readonly mesh_policies: string[];
  readonly mesh_roles: string[];
  readonly service_identities: string[];
  readonly node_identities: string[];
  readonly mesh_namespace: string;
  readonly partition: string;
  readonly local: boolean;
  readonly ttl: number;
  readonly max_ttl: number;
  /** Answered for roles of a mesh below 1.11. */
  readonly token_type?: string;
  /** Base64 ACL policy (below 1.11). */
  readonly policy?: string;
  /** Duration string (below 1.11). */
  readonly lease?: string;
}

/** Role parameters (lists may also be comma-separated strings); the deprecated ones only for mesh versions below 1.11. */
export interface MeshRoleInput {
  readonly mesh_policies?: string[] | string;
  readonly mesh_roles?: string[] | string;
  readonly service_identities?: string[] | string;
  readonly node_identities?: string[] | string;
  readonly mesh_namespace?: string;
  readonly partition?: string;
  readonly local?: boolean;
  readonly ttl?: string | number;
  readonly max_ttl?: string | number;
  readonly token_type?: 'client' | 'management';
  readonly policy?: string;
  readonly policies?: string[];
  readonly lease?: string;
}

/** A minted token with its lease. */
export interface MeshCreds {
  readonly token: string;
  readonly accessor: string;
  readonly local: boolean;
  readonly mesh_namespace: string;
  readonly partition: string;
  readonly lease_id: string;
  readonly lease_duration: number;
  readonly renewable: boolean;
}

/** Typed calls of the mesh-token engine. */
export class MeshTokenClient extends EngineClient {
  public async readAccess(mount: string): Promise<MeshAccessData | undefined> {
    return (await this.read<MeshAccessData>(`${mountPath(mount)}/config/access`))?.data;
  }

  public async writeAccess(mount: string, input: MeshAccessInput): Promise<void> {
    await this.call('POST', `${mountPath(mount)}/config/access`, input);
  }

  public async readRole(mount: string, name: string): Promise<MeshRoleData | undefined> {
    return (await this.read<MeshRoleData>(this.rolePath(mount, name)))?.data;
  }

  public async writeRole(mount: string, name: string, input: MeshRoleInput): Promise<void> {
    await this.call('POST', this.rolePath(mount, name), input);
  }

  public listRoles(mount: string): Promise<string[]> {
    return this.names(`${mountPath(mount)}/roles`);
  }

  /** Deletes a role; success when absent. */
  public async deleteRole(mount: string, name: string): Promise<void> {
    await this.call('DELETE', this.rolePath(mount, name));
  }

  /** A new token of the role, with its lease. */
  public async creds(mount: string, name: string): Promise<MeshCreds> {
    const e = (await this.call<Omit<MeshCreds, 'lease_id' | 'lease_duration' | 'renewable'>>('GET', `${mountPath(mount)}/creds/${segment(name)}`))!;
    return { ...e.data, lease_id: e.lease_id, lease_duration: e.lease_duration, renewable: e.renewable };
  }

  private rolePath(mount: string, name: string): string {
    return `${mountPath(mount)}/roles/${segment(name)}`;
  }
}
