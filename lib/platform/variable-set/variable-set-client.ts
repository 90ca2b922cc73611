import { seg } from '../client/path';
import { Document, PlainResource, ResourceIdentifier, toDocument, toPlain } from '../client/jsonapi';
import { PlatformTransport } from '../client/transport';

/** What a variable set's create and update bodies carry (go-tfe's `VariableSetCreateOptions`). */
export interface VariableSetAttributes {
  readonly name: string;
  readonly description: string;
  readonly global: boolean;
  readonly priority: boolean;
}

export interface VariableSetDoc extends PlainResource {
  readonly name: string;
  readonly description: string | null;
  readonly global: boolean;
  readonly priority?: boolean;
  readonly workspaces?: ResourceIdentifier[];
  readonly projects?: ResourceIdentifier[];
  readonly organization?: ResourceIdentifier;
}

const setPath = (id: string) => `/varsets/${seg(id)}`;

/** Variable sets (`/organizations/<org>/varsets`, `/varsets/<id>`) and the workspaces and projects they apply to. */
export class VariableSetsClient {
  constructor(private readonly client: PlatformTransport) {}

  public iterate(organization: string): AsyncGenerator<VariableSetDoc> {
    return this.client.pages(`/organizations/${seg(organization)}/varsets`) as AsyncGenerator<VariableSetDoc>;
  }

  public show(id: string): Promise<VariableSetDoc | undefined> {
    return this.client.getOne(setPath(id)) as Promise<VariableSetDoc | undefined>;
  }

  public async create(organization: string, attributes: VariableSetAttributes): Promise<VariableSetDoc> {
    const res = await this.client.request<Document>('POST', `/organizations/${seg(organization)}/varsets`, { body: toDocument('varsets', { ...attributes }) });
    return toPlain(res.body.data as any) as VariableSetDoc;
  }

  public async update(id: string, attributes: VariableSetAttributes): Promise<VariableSetDoc> {
    const res = await this.client.request<Document>('PATCH', setPath(id), { body: toDocument('varsets', { ...attributes }, undefined, id) });
    return toPlain(res.body.data as any) as VariableSetDoc;
  }

  /** Applies the set to (`POST`) or removes it from (`DELETE`) workspaces or projects. */
  public async relate(id: string, method: 'POST' | 'DELETE', kind: 'workspaces' | 'projects', ids: readonly string[]): Promise<void> {
    await this.client.request(method, `${setPath(id)}/relationships/${kind}`, { body: { data: ids.map((x) => ({ type: kind, id: x })) } });
  }

  /** Deletes; false when it was already absent. */
  public async destroy(id: string): Promise<boolean> {
    return (await this.client.request('DELETE', setPath(id), { accept: [404] })).status !== 404;
  }
}
