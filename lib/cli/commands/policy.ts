import { DesiredStack } from '../../core/model';
import { MESH_PERMISSIONS, meshAclPolicy } from '../../mesh/permissions';
import { PLATFORM_PERMISSIONS } from '../../platform/permissions';
import { PolicyPath, policyHcl, secretsPolicyOf, stackSecretsPolicy } from '../../secrets/policy';
import { Output } from '../output';
import { AppOptions, loadStacks, selectStacks } from '../workspace';

/** What one stack needs of each API to be planned, applied and destroyed. */
export interface StackPolicy {
  readonly stack: string;
  /** The secrets service's ACL policy, one `path` block per line (HCL). */
  readonly secretsPolicy: string;
  readonly secretsPaths: PolicyPath[];
  readonly platform: { address: string; kind: string; needs: string }[];
  readonly mesh: { address: string; kind: string; needs: string }[];
  /** The mesh ACL policy (HCL rules) those constructs need: a token holding only it can plan, apply and destroy. */
  readonly meshPolicy: string;
}

/** The smallest secrets-service policy and the platform and mesh permissions a stack's constructs need. */
export function stackPolicy(desired: DesiredStack): StackPolicy {
  const paths: PolicyPath[] = [];
  const platform: StackPolicy['platform'] = [];
  const mesh: StackPolicy['mesh'] = [];
  for (const [address, r] of Object.entries(desired.resources).sort(([a], [b]) => a.localeCompare(b))) {
    const p = PLATFORM_PERMISSIONS[r.kind];
    const m = MESH_PERMISSIONS[r.kind];
    try {
      const secrets = secretsPolicyOf(r.kind, r.spec, desired.resources);
      if (!secrets && !p && !m) throw new Error(`converge policy does not know what ${r.kind} needs`);
      if (secrets) paths.push(...secrets);
      if (p) platform.push({ address, kind: r.kind, needs: p(r.spec) });
      if (m) mesh.push({ address, kind: r.kind, needs: m(r.spec) });
    } catch (e) {
      // A path or name from the synthesized output that would change the policy: named, nothing printed.
      throw new Error(`${r.path ?? address}: ${(e as Error).message}`);
    }
  }
  const merged = stackSecretsPolicy(paths);
  const meshPolicy = meshAclPolicy(Object.values(desired.resources).map((r) => ({ kind: r.kind, spec: r.spec })));
  return { stack: desired.stack, secretsPolicy: policyHcl(merged), secretsPaths: merged, platform, mesh, meshPolicy };
}

/** `converge policy [--stack S] [--json]`. */
export async function policyCommand(opts: AppOptions & { json?: boolean }, out: Output): Promise<number> {
  const [desired] = selectStacks(loadStacks(opts), opts.stack);
  const policy = stackPolicy(desired);
  if (opts.json) {
    out.json(policy);
    return 0;
  }
  out.result(`# Secrets service ACL policy: what stack "${policy.stack}" needs to plan, apply and destroy`);
  out.result(policy.secretsPolicy || '# (no secrets-service constructs)');
  if (policy.platform.length) {
    out.result('');
    out.result('# Platform token permissions');
    for (const x of policy.platform) out.result(`#   ${x.address} (${x.kind}): ${oneLine(x.needs)}`);
  }
  if (policy.mesh.length) {
    out.result('');
    out.result('# Mesh ACL token rules');
    for (const x of policy.mesh) out.result(`#   ${x.address} (${x.kind}): ${oneLine(x.needs)}`);
    out.result('# Mesh ACL policy (rules of a Consul ACL policy):');
    out.result(policy.meshPolicy);
  }
  return 0;
}

/** A comment line stays one line, whatever a name from the synthesized output holds: a newline would start a rule. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, (c) => JSON.stringify(c).slice(1, -1));
}
