import { HttpClient } from '../../core/http/http-client';

/** A policy link of a role or token: the server answers both; a write may name either. */
export interface AclPolicyLink { readonly ID?: string; readonly Name?: string }

/** An ACL role as the mesh answers it. */
export interface AclRoleJson {
  readonly ID: string;
  readonly Name: string;
  readonly Description?: string;
  readonly Policies?: AclPolicyLink[];
  readonly ServiceIdentities?: { ServiceName: string; Datacenters?: string[] }[];
  readonly NodeIdentities?: { NodeName: string; Datacenter: string }[];
  readonly CreateIndex?: number;
  readonly ModifyIndex?: number;
}

/** What a role write sends. */
export type AclRoleBody = Omit<AclRoleJson, 'ID' | 'CreateIndex' | 'ModifyIndex'>;

/** The mesh's ACL role endpoints (`/v1/acl/role…`, Consul's). A missing role reads as undefined (404). */
export class MeshAclRoles {
  constructor(private readonly http: HttpClient) {}

  public async create(body: AclRoleBody, constructPath?: string): Promise<AclRoleJson> {
    return (await this.http.request<AclRoleJson>({ method: 'PUT', path: '/v1/acl/role', body, constructPath, idempotent: false })).body;
  }

  public async read(id: string, constructPath?: string): Promise<AclRoleJson | undefined> {
    const res = await this.http.request<AclRoleJson>({ method: 'GET', path: `/v1/acl/role/${encodeURIComponent(id)}`, accept: [404], constructPath });
    return res.status === 404 ? undefined : res.body;
  }

  public async readByName(name: string, constructPath?: string): Promise<AclRoleJson | undefined> {
    const res = await this.http.request<AclRoleJson>({ method: 'GET', path: `/v1/acl/role/name/${encodeURIComponent(name)}`, accept: [404], constructPath });
    return res.status === 404 ? undefined : res.body;
  }

  /** Replaces a role's fields (what the body leaves out is cleared). */
  public async update(id: string, body: AclRoleBody, constructPath?: string): Promise<AclRoleJson> {
    return (await this.http.request<AclRoleJson>({ method: 'PUT', path: `/v1/acl/role/${encodeURIComponent(id)}`, body, constructPath, idempotent: true })).body;
  }

  /** Deletes a role; absent is success. */
  public async delete(id: string, constructPath?: string): Promise<void> {
    await this.http.request<unknown>({ method: 'DELETE', path: `/v1/acl/role/${encodeURIComponent(id)}`, accept: [404], constructPath, idempotent: true });
  }

  public async list(constructPath?: string): Promise<AclRoleJson[]> {
    return (await this.http.request<AclRoleJson[]>({ method: 'GET', path: '/v1/acl/roles', constructPath })).body ?? [];
  }
}
