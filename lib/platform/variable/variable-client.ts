import { seg } from '../client/path';
import { Document, PlainResource, toDocument, toPlain } from '../client/jsonapi';
import { PlatformTransport } from '../client/transport';

/** What a workspace variable's create and update bodies carry (go-tfe's `VariableCreateOptions`). */
export interface VariableAttributes {
  readonly key: string;
  readonly value: string;
  readonly description: string;
  /** `engine` (the spec's name of the configuration's input variables) or `env`. */
  readonly category: string;
  readonly hcl: boolean;
  readonly sensitive: boolean;
}

/** A variable document: the value of a sensitive one reads as null. */
export interface VariableDoc extends PlainResource {
  readonly key: string;
  readonly value: string | null;
  readonly description: string | null;
  readonly category: string;
  readonly hcl: boolean;
  readonly sensitive: boolean;
}

/** Where a workspace's variables are (`/workspaces/<id>/vars`). */
export const workspaceVarsPath = (workspaceId: string) => `/workspaces/${seg(workspaceId)}/vars`;
/** Where a variable set's own variables are (`/varsets/<id>/relationships/vars`, go-tfe's `VariableSetVariables`). */
export const variableSetVarsPath = (setId: string) => `/varsets/${seg(setId)}/relationships/vars`;

/**
 * The variables of a workspace (the real platform's `/workspaces/<id>/vars`), or, built with `variableSetVarsPath`,
 * of a variable set: the same `vars` documents under another parent.
 */
export class VariablesClient {
  constructor(private readonly client: PlatformTransport, private readonly varsPath: (parentId: string) => string = workspaceVarsPath) {}

  /** Every variable of the workspace; undefined when the workspace is gone. */
  public async list(workspaceId: string): Promise<VariableDoc[] | undefined> {
    const res = await this.client.request<Document>('GET', this.varsPath(workspaceId), { accept: [404] });
    if (res.status === 404) return undefined;
    return ((res.body.data ?? []) as any[]).map((r) => toPlain(r) as VariableDoc);
  }

  /** undefined when the variable (or its workspace) is absent. */
  public show(workspaceId: string, id: string): Promise<VariableDoc | undefined> {
    return this.client.getOne(`${this.varsPath(workspaceId)}/${seg(id)}`) as Promise<VariableDoc | undefined>;
  }

  public async create(workspaceId: string, attributes: VariableAttributes): Promise<VariableDoc> {
    const res = await this.client.request<Document>('POST', this.varsPath(workspaceId), { body: toDocument('vars', { ...attributes }) });
    return toPlain(res.body.data as any) as VariableDoc;
  }

  /** Updates; `value` left out keeps the value held (a sensitive value not changed is never sent again). */
  public async update(workspaceId: string, id: string, attributes: Partial<VariableAttributes>): Promise<VariableDoc> {
    const res = await this.client.request<Document>('PATCH', `${this.varsPath(workspaceId)}/${seg(id)}`, { body: toDocument('vars', { ...attributes }, undefined, id) });
    return toPlain(res.body.data as any) as VariableDoc;
  }

  /** Deletes; false when it was already absent. */
  public async destroy(workspaceId: string, id: string): Promise<boolean> {
    return (await this.client.request('DELETE', `${this.varsPath(workspaceId)}/${seg(id)}`, { accept: [404] })).status !== 404;
  }
}
