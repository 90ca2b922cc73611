import { Observed, Written } from '../../core/engine/handler';
import { resourceMetadata } from '../../core/schema';
import { DataRetentionPolicy as Policy } from './self-hosted-client';
import { fromClient, platformClient } from '../shared/handler-util';
import { DATA_RETENTION_POLICY } from './data-retention-policy.schema';
import { PlatformResourceHandler, inOrganization } from '../shared/kind-permissions';

function outputsOf(p: Policy): Record<string, unknown> {
  return { id: p.id, type: p.type };
}

/**
 * `platform.DataRetentionPolicy`: identity is the organization name. Bodies (the real platform's):
 * POST `{"data":{"type":"data-retention-policy-delete-olders","attributes":{"delete-older-than-n-days":N}}}`
 * or `{"data":{"type":"data-retention-policy-dont-deletes"}}`; GET answers the explicit policy or
 * the installation default; DELETE removes the explicit policy.
 *
 * GET cannot say by itself whether the answer is the organization's own policy or the inherited
 * default, so the identity kept in state is `<organization>/<policy id>`: a read answering another
 * id means the explicit policy was removed (the default shows through), and the object is gone.
 * An identity of the organization name alone (an import, an adoption) takes the answer as it is.
 */
export const dataRetentionPolicyHandler: PlatformResourceHandler = {
  ...resourceMetadata(DATA_RETENTION_POLICY),
  permissions: {
    needs: (s) => `owners team of "${String(s.organization)}" on the self-hosted edition`,
    organization: (s) => inOrganization(s, 'can-update'),
  },
  // An organization always has a policy (its own, else the installation's default): a construct takes it over.
  alwaysExists: true,

  naturalId(spec): string | undefined {
    return typeof spec.organization === 'string' ? spec.organization : undefined;
  },

  importId(id: string): string {
    if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new Error(`data retention policy import id "${id}" must be an organization name`);
    return id;
  },

  async read(ctx, id): Promise<Observed | undefined> {
    const { organization, policyId } = splitId(id);
    const p = await platformClient(ctx).selfHosted.dataRetentionPolicy(organization);
    if (!p || (policyId !== undefined && p.id !== policyId)) return undefined;
    return { fields: { organization, ...fromClient(DATA_RETENTION_POLICY, p) }, outputs: outputsOf(p) };
  },

  async create(ctx, spec): Promise<Written> {
    return dataRetentionPolicyHandler.update(ctx, String(spec.organization), spec, [], { id: String(spec.organization), spec, outputs: {} });
  },

  async update(ctx, id, spec): Promise<Written> {
    const days = spec.deleteOlderThanNDays;
    const { organization } = splitId(id);
    const p = await platformClient(ctx).selfHosted.setDataRetentionPolicy(organization, typeof days === 'number' ? days : undefined);
    return { id: `${organization}/${p.id}`, outputs: outputsOf(p) };
  },

  async delete(ctx, id): Promise<void> {
    await platformClient(ctx).selfHosted.deleteDataRetentionPolicy(splitId(id).organization);
  },
};

/** `<organization>[/<policy id>]`. */
function splitId(id: string): { organization: string; policyId?: string } {
  const i = id.indexOf('/');
  return i < 0 ? { organization: id } : { organization: id.slice(0, i), policyId: id.slice(i + 1) };
}
