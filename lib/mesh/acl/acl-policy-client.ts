import { HttpClient } from '../../core/http/http-client';

/** An ACL policy as the mesh answers it. */
export interface AclPolicyJson {
  readonly ID: string;
  readonly Name: string;
  readonly Description?: string;
  /** The rules (Consul's HCL or JSON), as written; absent from lists. */
  readonly Rules?: string;
  readonly Datacenters?: string[] | null;
  readonly CreateIndex?: number;
  readonly ModifyIndex?: number;
}

/** What a policy write sends. */
export interface AclPolicyBody {
  readonly Name: string;
  readonly Description?: string;
  readonly Rules?: string;
  readonly Datacenters?: string[];
}

/**
 * The mesh's ACL policy endpoints (`/v1/acl/policy…`, Consul's; the spec leaves them out). A missing
 * policy reads as undefined (the server answers 404). Needs a token with `acl = "read"` / `"write"`.
 */
export class MeshAclPolicies {
  constructor(private readonly http: HttpClient) {}

  /** Creates a policy; answers it with its server-assigned `ID`. */
  public async create(body: AclPolicyBody, constructPath?: string): Promise<AclPolicyJson> {
    return (await this.http.request<AclPolicyJson>({ method: 'PUT', path: '/v1/acl/policy', body, constructPath, idempotent: false })).body;
  }

  /** Reads a policy by id; undefined when absent. */
  public async read(id: string, constructPath?: string): Promise<AclPolicyJson | undefined> {
    const res = await this.http.request<AclPolicyJson>({ method: 'GET', path: `/v1/acl/policy/${encodeURIComponent(id)}`, accept: [404], constructPath });
    return res.status === 404 ? undefined : res.body;
  }

  /** Reads a policy by name; undefined when absent. */
  public async readByName(name: string, constructPath?: string): Promise<AclPolicyJson | undefined> {
    const res = await this.http.request<AclPolicyJson>({ method: 'GET', path: `/v1/acl/policy/name/${encodeURIComponent(name)}`, accept: [404], constructPath });
    return res.status === 404 ? undefined : res.body;
  }

  /** Replaces a policy's fields (what the body leaves out is cleared). */
  public async update(id: string, body: AclPolicyBody, constructPath?: string): Promise<AclPolicyJson> {
    return (await this.http.request<AclPolicyJson>({ method: 'PUT', path: `/v1/acl/policy/${encodeURIComponent(id)}`, body, constructPath, idempotent: true })).body;
  }

  /** Deletes a policy; absent is success. */
  public async delete(id: string, constructPath?: string): Promise<void> {
    await this.http.request<unknown>({ method: 'DELETE', path: `/v1/acl/policy/${encodeURIComponent(id)}`, accept: [404], constructPath, idempotent: true });
  }

  /** Every policy (without their rules). */
  public async list(constructPath?: string): Promise<AclPolicyJson[]> {
    return (await this.http.request<AclPolicyJson[]>({ method: 'GET', path: '/v1/acl/policies', constructPath })).body ?? [];
  }
}
