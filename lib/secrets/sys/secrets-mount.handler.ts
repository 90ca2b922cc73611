import { HandlerContext, Observed, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { ApiError } from '../../core/http/api-error';
import { normalDuration } from '../../core/duration';
import { resourceMetadata } from '../../core/schema';
import { SecretsClient } from '../client/secrets-client';
import { touchedFields } from '../shared/engine-util';
import { KindSchema } from '../../core/schema';
import { SECRETS_MOUNT } from './secrets-mount.schema';
import { MountInfo, MountTableName, MountTuneInput, SysClient } from './sys-client';
import { policyPath, SecretsPolicyOf, seg } from '../shared/policy-paths';

function sys(ctx: HandlerContext): SysClient {
  return new SysClient(new SecretsClient(ctx.http), ctx.address);
}

const options = (spec: Spec): Record<string, string> => (spec.options ?? {}) as Record<string, string>;

function observed(path: string, m: MountInfo): Observed {
  return {
      fields: {
        path,
        type: m.type,
        description: m.description ?? '',
        defaultLeaseTtl: normalDuration(m.config?.default_lease_ttl ?? 0),
        maxLeaseTtl: normalDuration(m.config?.max_lease_ttl ?? 0),
        options: m.options ?? {},
      },
      outputs: { accessor: m.accessor ?? '', mountedPath: path },
  };
}

/**
 * The lifecycle of an entry of a mount table: `sys/<table>/<path>`, tuned in place through
 * `sys/<table>/<path>/tune` (a secrets engine's `sys/mounts`, an auth method's `sys/auth`).
 */
export function mountTableHandler(schema: KindSchema, table: MountTableName, destroyWarning: string, permissions: SecretsPolicyOf): ResourceHandler {
  /** The mount as read after its enable (which answers nothing): its accessor is the service's. */
  async function written(ctx: HandlerContext, path: string): Promise<Written> {
    const m = await sys(ctx).readMount(path, table);
    return { id: path, outputs: { accessor: m?.accessor ?? '', mountedPath: path } };
  }
  return {
    ...resourceMetadata(schema),
    destroyWarning,
    permissions,

    naturalId(spec) {
      return spec.path as string;
    },

    importId(id) {
      const path = id.replace(/\/+$/, '');
      if (!path || path.startsWith('/')) throw new Error(`import id "${id}" must be a mount path, e.g. team-kv`);
      return path;
    },

    async read(ctx, id): Promise<Observed | undefined> {
      const m = await sys(ctx).readMount(id, table);
      return m ? observed(id, m) : undefined;
    },

    /**
     * One `GET sys/<table>` for a plan's two or more mounts: it answers every mount as a read does. It
     * needs `read` on `sys/<table>`, which a least-privilege token (its mounts' own paths) lacks: refused,
     * it says nothing, and each mount is read alone.
     */
    async prefetch(ctx, wanted) {
      const known = new Map<string, Observed | null>();
      if (wanted.length < 2) return known;
      let mounts: Map<string, MountInfo>;
      try {
        mounts = await sys(ctx).listMounts(table);
      } catch (e) {
        if (e instanceof ApiError && e.status === 403) return known;
        throw e;
      }
      for (const w of wanted) {
        const m = mounts.get(w.id);
        known.set(w.id, m ? observed(w.id, m) : null);
      }
      return known;
    },

    async create(ctx, spec): Promise<Written> {
      const path = spec.path as string;
      await sys(ctx).enableMount(path, {
        type: spec.type as string,
        description: spec.description as string,
        config: { default_lease_ttl: spec.defaultLeaseTtl as string, max_lease_ttl: spec.maxLeaseTtl as string },
        options: options(spec),
      }, table);
      return written(ctx, path);
    },

    /** One tune with what changed (type and path replace the mount). */
    async update(ctx, id, spec, changes, prior): Promise<Written> {
      const touched = touchedFields(changes);
      const tune: { -readonly [K in keyof MountTuneInput]: MountTuneInput[K] } = {};
      if (touched.has('description')) tune.description = spec.description as string;
      if (touched.has('defaultLeaseTtl')) tune.default_lease_ttl = spec.defaultLeaseTtl as string;
      if (touched.has('maxLeaseTtl')) tune.max_lease_ttl = spec.maxLeaseTtl as string;
      if (touched.has('options')) {
        // The service merges a tune's options into the mount's: one left out stays.
        const was = { ...((prior.spec.options ?? {}) as Record<string, string>) };
        const gone = Object.keys(was).filter((k) => !(k in options(spec)));
        if (gone.length) {
          throw new Error(`${ctx.address}: options: the service keeps an option a tune leaves out, so ${gone.map((k) => `"${k}"`).join(', ')} cannot be removed in place; `
            + 'keep it, or replace the mount (a new path)');
        }
        tune.options = options(spec);
      }
      if (Object.keys(tune).length) await sys(ctx).tuneMount(id, tune, table);
      // A tune keeps the mount and its accessor: nothing to read. The applier keeps the outputs the plan read (or the
      // recorded ones) for those the write leaves out.
      return { id };
    },

    async delete(ctx, id) {
      await sys(ctx).disableMount(id, table);
    },
  };
}

/** Lifecycle of `secrets.SecretsMount`: `sys/mounts/<path>`, tuned in place through `sys/mounts/<path>/tune`. */
export const secretsMountHandler: ResourceHandler = mountTableHandler(SECRETS_MOUNT, 'mounts',
  'unmounts the engine: every secret, role and lease in it is gone',
  // sys/mounts has no existence check: enabling a mount is an update, as is a tune. Read is the mount's own entry.
  (s) => [policyPath(`sys/mounts/${seg(s.path)}`, 'read', 'update', 'delete'), policyPath(`sys/mounts/${seg(s.path)}/tune`, 'update')]);
