import { Construct } from 'constructs';
import { ValidationError } from '../../core/constructs/validation';
import { validateProps } from '../../core/schema/validate-props';
import { mountField, SEGMENT_NAME_FIELD } from '../shared/engine-fields';
import { KindSchema, renderSpec } from '../../core/schema';
import { LeasedCredential } from '../shared/leased-credential';
import { SecretsProvider } from '../provider';
import { DIRECTORY_LIBRARY_CHECK_OUT } from './directory-library-check-out.schema';
import { IDirectoryLibrarySet } from './directory-library-set';

/** Props of the DirectoryLibraryCheckOut data source. */
export interface DirectoryLibraryCheckOutProps {
  /** The library set an account is checked out of (`DirectoryLibrarySet`, or one looked up with `DirectoryLibrarySet.fromName`). */
  readonly librarySet: IDirectoryLibrarySet;
  /**
   * How long the account is lent (a longer one is cut to the set's ttl).
   * @default - the set's ttl
   */
  readonly ttl?: string;
  /**
   * How to reach the secrets service.
   * @default - the stack's SecretsProvider, else the `SECRETS_ADDR` and `SECRETS_TOKEN` environment variables
   */
  readonly provider?: SecretsProvider;
}

/**
 * A service account checked out of a directory library set (`POST {mount}/library/<set>/check-out`)
 * with its password. A check-out is a write on the service: `converge apply` does it (a plan never
 * does), and keeps the account and its lease in state, encrypted, while more than a third of the
 * lease is left; plans and applies in that time reuse it instead of checking out again. After that
 * the next apply checks out anew (the set needs a free account then) and the constructs that use it
 * are updated.
 *
 * The account is returned when its lease ends (`leaseExpiresAt`): the service checks it in by itself, and rotates its
 * password so that the borrower's copy stops working. converge never checks it in, not even when
 * the construct is removed (state forgets it, the lease runs on); to return it earlier, check it in
 * with `POST {mount}/library/<set>/check-in` (or, as an administrator, `{mount}/library/manage/<set>/check-in`).
 *
 * @example
 * const batch = secrets.DirectoryLibrarySet.fromName(stack, 'batch-set', 'directory', 'batch');
 * const lent = new secrets.DirectoryLibraryCheckOut(stack, 'batch-account', { librarySet: batch, ttl: '8h' });
 */
export class DirectoryLibraryCheckOut extends LeasedCredential {
  constructor(scope: Construct, id: string, props: DirectoryLibraryCheckOutProps) {
    super(scope, id, DIRECTORY_LIBRARY_CHECK_OUT.kind, props, props.provider);
    const set = props.librarySet as Partial<IDirectoryLibrarySet> | null;
    if (!(set !== null && typeof set === 'object' && typeof set.mount === 'string' && typeof set.setName === 'string')) {
      throw new ValidationError(this, 'librarySet', 'must be a library set of the directory engine (a DirectoryLibrarySet, or one ' +
        `DirectoryLibrarySet.fromName looks up), not ${Array.isArray(set) ? 'a list' : JSON.stringify(set)}`);
    }
    validateProps(this, { mount: mountField(''), setName: SEGMENT_NAME_FIELD }, { mount: set.mount, setName: set.setName }, 'librarySet.');
    this._set = props.librarySet;
    // Checked out after the set (a construct of this app, or its lookup).
    if (Construct.isConstruct(props.librarySet)) this.node.addDependency(props.librarySet);
  }

  /** @internal */
  private readonly _set: IDirectoryLibrarySet;

  /** The account checked out. */
  public get serviceAccountName(): string {
    return this._attrString('serviceAccountName');
  }

  /** Its password (sensitive). */
  public get password(): string {
    return this._attrString('password');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return DIRECTORY_LIBRARY_CHECK_OUT;
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    return renderSpec(DIRECTORY_LIBRARY_CHECK_OUT.fields, { ...this._props, mount: this._set.mount, setName: this._set.setName });
  }
}
