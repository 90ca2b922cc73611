import { registerDomain } from '../core/engine/registry';
import { LOOKUP_PREFIX } from '../core/model';
import { SECRETS_KINDS } from './kinds';
import { PolicyPath, PolicyResources, registeredSecretsPolicyOf, SecretsPolicyOf } from './shared/policy-paths';

export { mergePolicy, PREFLIGHT_PATH, stackSecretsPolicy } from './shared/policy-paths';
export type { PolicyPath } from './shared/policy-paths';

/**
 * What each secrets kind needs, by kind (`lookup:<kind>` for a lookup), as the handlers of the
 * domain's kinds declare it (`permissions`, `lookupPermissions`): collected, never written by hand.
 * docs/secrets-policy.md's table is checked against it.
 */
export const SECRETS_POLICY: Readonly<Record<string, SecretsPolicyOf>> = Object.fromEntries([
  ...[...SECRETS_KINDS.resources, ...SECRETS_KINDS.dataSources].flatMap((h) => h.permissions ? [[h.kind, h.permissions]] : []),
  ...SECRETS_KINDS.resources.flatMap((h) => h.lookupPermissions ? [[LOOKUP_PREFIX + h.kind, h.lookupPermissions]] : []),
]);

/**
 * The paths a desired resource needs (undefined for a kind of another API), mount references resolved:
 * what its handler declares, read from the registry (the secrets kinds registered first, as an app's
 * synth, which registers nothing, renders a `LeastPrivilegePolicy` with it).
 */
export function secretsPolicyOf(kind: string, spec: Record<string, unknown>, resources: PolicyResources): PolicyPath[] | undefined {
  registerDomain(SECRETS_KINDS);
  return registeredSecretsPolicyOf(kind, spec, resources);
}

/**
 * The policy as the service's HCL: one `path` block per line, each path a quoted, escaped string
 * (paths are checked where they are read; escaped all the same, so that no path ends its string).
 */
export function policyHcl(paths: readonly PolicyPath[]): string {
  return paths.map((x) => `path ${hclString(x.path)} { capabilities = [${x.capabilities.map(hclString).join(', ')}] }`).join('\n');
}

/** A quoted HCL string: JSON's escapes (which HCL reads alike), and `${`/`%{` escaped as HCL templates would read them. */
export function hclString(v: string): string {
  return JSON.stringify(v).replace(/\$\{/g, '$$$${').replace(/%\{/g, '%%{');
}
