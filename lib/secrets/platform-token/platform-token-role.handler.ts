import { HandlerContext, Observed, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { PlatformTokenClient } from './platform-token-client';
import { normalDuration } from '../../core/duration';
import { pathImportId, secretsClient, splitPathId } from '../engine-util';

const client = (ctx: HandlerContext) => new PlatformTokenClient(secretsClient(ctx), ctx.address);

async function write(ctx: HandlerContext, spec: Spec): Promise<Written> {
  await client(ctx).writeRole(spec.mount as string, spec.name as string, {
    organization: spec.organization as string, team_id: spec.teamId as string, user_id: spec.userId as string,
    ttl: spec.ttl as string, max_ttl: spec.maxTtl as string,
  });
  return { id: `${spec.mount}/role/${spec.name}` };
}

/** Lifecycle of `secrets.PlatformTokenRole` (`{mount}/role/<name>`). */
export const platformTokenRoleHandler: ResourceHandler = {
  kind: 'secrets.PlatformTokenRole',
  api: 'secrets',
  replaceFields: ['mount', 'name'],

  naturalId: (spec) => `${spec.mount}/role/${spec.name}`,
  importId: (id) => pathImportId(id, 'role', 'platform/role/ci'),

  async read(ctx, id): Promise<Observed | undefined> {
    const at = splitPathId(id, 'role')!;
    const r = await client(ctx).readRole(at.mount, at.name);
    if (!r) return undefined;
    return {
      fields: {
        mount: at.mount, name: at.name, organization: r.organization ?? '', teamId: r.team_id ?? '', userId: r.user_id ?? '',
        ttl: normalDuration(r.ttl), maxTtl: normalDuration(r.max_ttl),
      },
    };
  },

  create: (ctx, spec) => write(ctx, spec),
  update: (ctx, _id, spec) => write(ctx, spec),

  async delete(ctx, id) {
    const at = splitPathId(id, 'role')!;
    await client(ctx).deleteRole(at.mount, at.name);
  },
};
