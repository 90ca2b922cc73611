import { ApiError } from '../../core/http/api-error';
import { HttpClient } from '../../core/http/http-client';
import { AclPolicyLink } from './acl-role-client';

/** An ACL token as the mesh answers it. `SecretID` is the credential: never keep nor print it. */
export interface AclTokenJson {
  readonly AccessorID: string;
  readonly SecretID?: string;
  readonly Description?: string;
  readonly Policies?: AclPolicyLink[];
  readonly Roles?: AclPolicyLink[];
  readonly ServiceIdentities?: { ServiceName: string; Datacenters?: string[] }[];
  readonly NodeIdentities?: { NodeName: string; Datacenter: string }[];
  readonly Local?: boolean;
  readonly CreateTime?: string;
  readonly CreateIndex?: number;
  readonly ModifyIndex?: number;
}

/** What a token write sends (the server generates the AccessorID and SecretID). */
export type AclTokenBody = Omit<AclTokenJson, 'AccessorID' | 'SecretID' | 'CreateTime' | 'CreateIndex' | 'ModifyIndex'>;

/** The mesh's ACL token endpoints (`/v1/acl/token…`, Consul's). A missing token reads as undefined (403 "token does not exist"). */
export class MeshAclTokens {
  constructor(private readonly http: HttpClient) {}

  public async create(body: AclTokenBody, constructPath?: string): Promise<AclTokenJson> {
    return (await this.http.request<AclTokenJson>({ method: 'PUT', path: '/v1/acl/token', body, constructPath, idempotent: false })).body;
  }

  public async read(accessorId: string, constructPath?: string): Promise<AclTokenJson | undefined> {
    try {
      return (await this.http.request<AclTokenJson>({ method: 'GET', path: `/v1/acl/token/${encodeURIComponent(accessorId)}`, constructPath })).body;
    } catch (e) {
      // The mesh answers a missing token 403 with this message (a refused caller gets another).
      if (e instanceof ApiError && e.status === 403 && /token does not exist/.test(e.message)) return undefined;
      throw e;
    }
  }

  /** Replaces a token's fields (what the body leaves out is cleared; `Local` cannot change). */
  public async update(accessorId: string, body: AclTokenBody, constructPath?: string): Promise<AclTokenJson> {
    return (await this.http.request<AclTokenJson>({ method: 'PUT', path: `/v1/acl/token/${encodeURIComponent(accessorId)}`, body, constructPath, idempotent: true })).body;
  }

  /** Deletes a token; absent is success. */
  public async delete(accessorId: string, constructPath?: string): Promise<void> {
    await this.http.request<unknown>({ method: 'DELETE', path: `/v1/acl/token/${encodeURIComponent(accessorId)}`, accept: [404], constructPath, idempotent: true });
  }

  public async list(constructPath?: string): Promise<AclTokenJson[]> {
    return (await this.http.request<AclTokenJson[]>({ method: 'GET', path: '/v1/acl/tokens', constructPath })).body ?? [];
  }
}
