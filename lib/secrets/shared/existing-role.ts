import { Construct } from 'constructs';
import { ExistingObject } from '../../core/constructs/existing-object';
import { KindSchema } from '../../core/schema';
import { validateProps } from '../../core/schema/validate-props';
import { SecretsProvider } from '../provider';

/**
 * A role of a secrets engine that exists outside this app (`PlatformTokenRole.fromName`,
 * `MeshTokenRole.fromName`): read at plan time at `{mount}/<section>/<name>`, the plan failing,
 * naming the construct, when it is absent; never changed nor deleted.
 */
export class ExistingEngineRole extends ExistingObject {
  public readonly mount: string;
  public readonly roleName: string;

  constructor(scope: Construct, id: string, schema: KindSchema, section: string, mount: string, name: string, provider?: SecretsProvider) {
    super(scope, id, schema.kind, schema.api, `${mount}/${section}/${name}`, 'mount and name', provider);
    validateProps(this, { mount: schema.fields.mount, name: schema.fields.name }, { mount, name });
    this.mount = mount;
    this.roleName = name;
  }
}
