import { seg } from '../client/path';
import { Document, PlainResource } from '../client/jsonapi';
import { Page, PlatformTransport } from '../client/transport';

export const DRP_DELETE_OLDER = 'data-retention-policy-delete-olders';
export const DRP_DONT_DELETE = 'data-retention-policy-dont-deletes';

/** A data retention policy: delete data older than N days, or never delete. */
export interface DataRetentionPolicy {
  readonly id: string;
  readonly type: typeof DRP_DELETE_OLDER | typeof DRP_DONT_DELETE;
  /** Present for `data-retention-policy-delete-olders`. */
  readonly deleteOlderThanNDays?: number;
}

/** A module producer: an organization sharing modules, with `name` and `externalId`. */
export interface ModuleProducer extends PlainResource {
  readonly name: string;
  readonly externalId: string;
}

const orgPath = (o: string) => `/organizations/${seg(o)}/relationships`;

/** The self-hosted edition's endpoints (on the hosted edition they answer 404). */
export class SelfHostedClient {
  constructor(private readonly client: PlatformTransport) {}

  public moduleProducers(organization: string, page?: { number: number; size: number }): Promise<Page<ModuleProducer>> {
    return this.client.page(`${orgPath(organization)}/module-producers`, {}, page) as Promise<Page<ModuleProducer>>;
  }

  public iterateModuleProducers(organization: string, pageSize?: number): AsyncGenerator<ModuleProducer> {
    return this.client.pages(`${orgPath(organization)}/module-producers`, {}, pageSize) as AsyncGenerator<ModuleProducer>;
  }

  /** The organization's policy (or the installation default it inherits); undefined on 404. */
  public async dataRetentionPolicy(organization: string): Promise<DataRetentionPolicy | undefined> {
    const res = await this.client.request<Document>('GET', `${orgPath(organization)}/data-retention-policy`, { accept: [404] });
    return res.status === 404 ? undefined : policyOf(res.body);
  }

  /** Sets the explicit policy: delete data older than `days`, or (undefined) never delete. */
  public async setDataRetentionPolicy(organization: string, deleteOlderThanNDays?: number): Promise<DataRetentionPolicy> {
    const data = deleteOlderThanNDays === undefined
      ? { type: DRP_DONT_DELETE }
      : { type: DRP_DELETE_OLDER, attributes: { 'delete-older-than-n-days': deleteOlderThanNDays } };
    const res = await this.client.request<Document>('POST', `${orgPath(organization)}/data-retention-policy`, { body: { data } });
    return policyOf(res.body);
  }

  /** Removes the explicit policy (the installation default applies again); false when the organization is absent. */
  public async deleteDataRetentionPolicy(organization: string): Promise<boolean> {
    return (await this.client.request('DELETE', `${orgPath(organization)}/data-retention-policy`, { accept: [404] })).status !== 404;
  }
}

function policyOf(doc: Document): DataRetentionPolicy {
  const d = doc.data as any;
  const n = d.attributes?.['delete-older-than-n-days'];
  return { id: d.id, type: d.type, ...(typeof n === 'number' ? { deleteOlderThanNDays: n } : {}) };
}
