import { Construct } from 'constructs';
import { ApiProvider } from './api-provider';
import { DataSource } from './resource';
import { LOOKUP_PREFIX } from '../model';

/**
 * An object that exists outside this app, looked up at plan time by the id `converge import` takes
 * (`Organization.fromName`, `KvSecret.fromPath`, …), as aws-cdk-lib's `Bucket.fromBucketName`. It is
 * never changed nor deleted; the plan fails, naming its path, when it is absent. Other constructs
 * reference it like the construct it stands for, and are ordered after it.
 */
export class ExistingObject extends DataSource {
  /** What the user named it by (`name`, `id`, `path`), for error messages. @internal */
  private readonly _by: string;

  /**
   * @param kind the resource kind looked up (`platform.Organization`)
   * @param objectId the id `converge import` takes for the kind
   * @param by what the id is called for the user (`name`)
   */
  public constructor(scope: Construct, id: string, kind: string, api: string, objectId: string, by: string, provider?: ApiProvider) {
    super(scope, id, LOOKUP_PREFIX + kind, api, provider);
    this._objectId = objectId;
    this._by = by;
  }

  /** @internal */
  private readonly _objectId: string;

  /**
   * Fields of the object the lookup knows already and the id alone may not tell (a KV secret's mount,
   * which may hold slashes): given to the kind's `read` as the desired spec. @internal
   */
  protected _known(): Record<string, unknown> | undefined {
    return undefined;
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    const known = this._known();
    return { id: this._objectId, by: this._by, ...(known ? { known } : {}) };
  }
}
