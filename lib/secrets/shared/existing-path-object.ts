import { Construct } from 'constructs';
import { ExistingObject } from '../../core/constructs/existing-object';
import { KindSchema } from '../../core/schema';
import { validateProps } from '../../core/schema/validate-props';
import { SecretsProvider } from '../provider';

/**
 * An engine object that exists outside the app, named by its mount and name (`<mount>/<section>/<name>`,
 * the id `converge import` takes): `DatabaseConnection.fromName`, `DatabaseRole.fromName`, … The mount
 * and name are checked as the kind's construct checks them.
 */
export class ExistingPathObject extends ExistingObject {
  /** Mount path of the engine. */
  public readonly mount: string;
  /** The object's name. @internal */
  protected readonly _name: string;

  constructor(scope: Construct, id: string, schema: KindSchema, section: string, mount: string, name: string, provider?: SecretsProvider) {
    super(scope, id, schema.kind, schema.api, `${mount}/${section}/${name}`, 'mount and name', provider);
    validateProps(this, { mount: schema.fields.mount, name: schema.fields.name }, { mount, name });
    this.mount = mount;
    this._name = name;
  }
}
