import { ConvergeElement } from '../../lib/core/constructs/resource';
import { registeredKinds } from '../../lib/core/engine/registry';
import * as mesh from '../../lib/mesh';
import * as platform from '../../lib/platform';
import * as secrets from '../../lib/secrets';
import { registerAllKinds } from '../../lib/kinds';
import { samplesOf } from '../support/samples';
import { KindProps } from './prop-arbitraries';

registerAllKinds();

export type { KindProps } from './prop-arbitraries';

/** Every kind's valid and invalid props: the `props` of the families' samples files. */
export const KIND_PROPS: Record<string, KindProps> = samplesOf('props');

export type ConstructClass = new (scope: any, id: string, props: any) => ConvergeElement;

/** The construct classes the public modules export, by kind (`<api>.<ClassName>`). */
export function exportedConstructClasses(): Map<string, ConstructClass> {
  const out = new Map<string, ConstructClass>();
  for (const [api, mod] of [['platform', platform], ['secrets', secrets], ['mesh', mesh]] as const) {
    for (const [name, v] of Object.entries(mod)) {
      if (typeof v === 'function' && v.prototype instanceof ConvergeElement) out.set(`${api}.${name}`, v as unknown as ConstructClass);
    }
  }
  return out;
}

/** Exported abstract bases (they have no kind of their own). */
export const ABSTRACT_BASES = ['mesh.MeshConfigEntry', 'secrets.SecretsEngineRole', 'secrets.SecretsEngineCredentials',
  'secrets.LeasedSecretsEngineCredentials', 'secrets.LeasedCredential', 'secrets.DatabaseRoleBase'];

/** Exported construct classes that make an object of another kind (a `LeastPrivilegePolicy` is a `SecretsPolicy`). */
export const KIND_VARIANTS: Record<string, string> = {
  'secrets.LeastPrivilegePolicy': 'secrets.SecretsPolicy',
};

export function allKinds(): string[] {
  const k = registeredKinds();
  return [...k.resources, ...k.dataSources].sort();
}
