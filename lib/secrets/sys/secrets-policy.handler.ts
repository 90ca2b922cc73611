import { HandlerContext, Observed, ResourceHandler, Written } from '../../core/engine/handler';
import { resourceMetadata } from '../../core/schema';
import { SecretsClient } from '../client/secrets-client';
import { SECRETS_POLICY } from './secrets-policy.schema';
import { SysClient } from './sys-client';
import { policyPath, seg } from '../shared/policy-paths';

function sys(ctx: HandlerContext): SysClient {
  return new SysClient(new SecretsClient(ctx.http), ctx.address);
}

async function write(ctx: HandlerContext, name: string, policy: string): Promise<Written> {
  await sys(ctx).writePolicy(name, policy);
  return { id: name };
}

/** Lifecycle of `secrets.SecretsPolicy`: `sys/policies/acl/<name>`, one write creates or replaces the document. */
export const secretsPolicyHandler: ResourceHandler = {
  ...resourceMetadata(SECRETS_POLICY),
  // One write creates or replaces the document (no existence check: update).
  permissions: (s) => [policyPath(`sys/policies/acl/${seg(s.name)}`, 'read', 'update', 'delete')],
  destroyWarning: 'tokens holding the policy lose what it granted',

  naturalId(spec) {
    return spec.name as string;
  },

  importId(id) {
    if (!id || id.includes('/')) throw new Error(`import id "${id}" must be a policy name, e.g. app-read`);
    return id.toLowerCase();
  },

  async read(ctx, id): Promise<Observed | undefined> {
    const p = await sys(ctx).readPolicy(id);
    return p ? { fields: { name: id, policy: p.policy } } : undefined;
  },

  create: (ctx, spec) => write(ctx, spec.name as string, spec.policy as string),
  update: (ctx, id, spec) => write(ctx, id, spec.policy as string),

  async delete(ctx, id) {
    await sys(ctx).deletePolicy(id);
  },
};
