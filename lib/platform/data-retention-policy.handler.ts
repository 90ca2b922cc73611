import { Observed, ResourceHandler, Written } from '../core/engine/handler';
import { DataRetentionPolicy as Policy } from './client/self-hosted';
import { platformClient } from './handler-util';

function outputsOf(p: Policy): Record<string, unknown> {
  return { id: p.id, type: p.type };
}

/**
 * `platform.DataRetentionPolicy`: identity is the organization name. Bodies (the real platform's):
 * POST `{"data":{"type":"data-retention-policy-delete-olders","attributes":{"delete-older-than-n-days":N}}}`
 * or `{"data":{"type":"data-retention-policy-dont-deletes"}}`; GET answers the explicit policy or
 * the installation default; DELETE removes the explicit policy.
 */
export const dataRetentionPolicyHandler: ResourceHandler = {
  kind: 'platform.DataRetentionPolicy',
  api: 'platform',
  replaceFields: ['organization'],

  naturalId(spec): string | undefined {
    return typeof spec.organization === 'string' ? spec.organization : undefined;
  },

  importId(id: string): string {
    if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new Error(`data retention policy import id "${id}" must be an organization name`);
    return id;
  },

  async read(ctx, id): Promise<Observed | undefined> {
    const p = await platformClient(ctx).selfHosted.dataRetentionPolicy(id);
    if (!p) return undefined;
    return { fields: { organization: id, deleteOlderThanNDays: p.deleteOlderThanNDays ?? null }, outputs: outputsOf(p) };
  },

  async create(ctx, spec): Promise<Written> {
    return dataRetentionPolicyHandler.update(ctx, String(spec.organization), spec, [], { id: String(spec.organization), spec, outputs: {} });
  },

  async update(ctx, id, spec): Promise<Written> {
    const days = spec.deleteOlderThanNDays;
    const p = await platformClient(ctx).selfHosted.setDataRetentionPolicy(id, typeof days === 'number' ? days : undefined);
    return { id, outputs: outputsOf(p) };
  },

  async delete(ctx, id): Promise<void> {
    await platformClient(ctx).selfHosted.deleteDataRetentionPolicy(id);
  },
};
