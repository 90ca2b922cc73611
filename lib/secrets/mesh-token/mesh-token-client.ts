import { mountPath } from '../client/engine-client';
import { SecretsClient } from '../client/secrets-client';
import { RoleEngineClient } from '../shared/engine-util';
import { LeaseFields } from '../shared/lease';

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
export interface MeshCreds extends LeaseFields {
  readonly token: string;
  readonly accessor: string;
  readonly local: boolean;
  readonly mesh_namespace: string;
  readonly partition: string;
}

/** Typed calls of the mesh-token engine. */
export class MeshTokenClient extends RoleEngineClient<MeshRoleData, MeshRoleInput> {
  constructor(secrets: SecretsClient, constructPath?: string) {
    super(secrets, constructPath, 'roles');
  }

  public async readAccess(mount: string): Promise<MeshAccessData | undefined> {
    return (await this.read<MeshAccessData>(`${mountPath(mount)}/config/access`))?.data;
  }

  public async writeAccess(mount: string, input: MeshAccessInput): Promise<void> {
    await this.call('POST', `${mountPath(mount)}/config/access`, input);
  }

  /** A new token of the role, with its lease. */
  public creds(mount: string, name: string): Promise<MeshCreds> {
    return this.credsOf<Omit<MeshCreds, keyof LeaseFields>>(mount, name);
  }
}
