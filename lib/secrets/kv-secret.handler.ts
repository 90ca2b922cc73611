import { FieldChange, HandlerContext, Observed, PriorRecord, ResourceHandler, Spec, Written } from '../core/engine/handler';
import { ApiError } from '../core/http/api-error';
import { KvClient, KvKeyMetadataInput } from './client/kv-client';
import { SecretsClient } from './client/secrets-client';
import { normalDuration } from '../core/duration';

const CAS_MISMATCH = 'check-and-set parameter did not match the current version';
const METADATA_FIELDS = ['customMetadata', 'maxVersions', 'casRequired', 'deleteVersionAfter'];

function kv(ctx: HandlerContext): KvClient {
  return new KvClient(new SecretsClient(ctx.http), ctx.address);
}

/** `<mount>/<path>` -> mount and path; the desired spec disambiguates a mount holding slashes. */
function splitId(id: string, spec?: Spec): { mount: string; path: string } {
  const mount = typeof spec?.mount === 'string' && id.startsWith(`${spec.mount}/`) ? spec.mount : id.split('/')[0];
  return { mount, path: id.slice(mount.length + 1) };
}

function metadataBody(spec: Spec): KvKeyMetadataInput {
  return {
    max_versions: spec.maxVersions as number,
    cas_required: spec.casRequired as boolean,
    delete_version_after: spec.deleteVersionAfter as string,
    custom_metadata: spec.customMetadata as Record<string, string>,
  };
}

/** Writes data with check-and-set; a mismatch means someone else wrote: fail loudly, never overwrite. */
async function writeWithCas(ctx: HandlerContext, mount: string, path: string, data: Record<string, unknown>, cas: number): Promise<number> {
  try {
    return (await kv(ctx).write(mount, path, data, cas)).version;
  } catch (e) {
    if (e instanceof ApiError && e.status === 400 && e.apiMessages.some((m) => m.includes(CAS_MISMATCH))) {
      throw concurrentWriter(ctx, mount, path, cas);
    }
    throw e;
  }
}

function concurrentWriter(ctx: HandlerContext, mount: string, path: string, cas: number): Error {
  const expected = cas === 0 ? 'the key not to exist' : `version ${cas} to be current`;
  return new Error(`${ctx.address}: ${mount}/${path} was written by someone else while converge worked (expected ${expected}); `
    + 'not overwriting it: run plan again to see the current state');
}

const topKey = (p: string) => p.split(/[.[]/)[0];

/** Lifecycle of `secrets.KvSecret`: a key of a KV version 2 engine, its data and its metadata. */
export const kvSecretHandler: ResourceHandler = {
  kind: 'secrets.KvSecret',
  api: 'secrets',
  replaceFields: ['mount', 'path'],
  sensitiveFields: ['data'],
  destroyWarning: 'deletes the key\'s metadata and every version permanently',

  naturalId(spec) {
    return `${spec.mount}/${spec.path}`;
  },

  importId(id) {
    const s = id.indexOf('/');
    if (s <= 0 || s === id.length - 1) throw new Error(`import id "${id}" must be <mount>/<path>, e.g. secret/app/db`);
    return id;
  },

  async read(ctx, id, desired): Promise<Observed | undefined> {
    const { mount, path } = splitId(id, desired);
    const client = kv(ctx);
    const meta = await client.readMetadata(mount, path);
    if (!meta) return undefined;
    // A key whose latest version is soft-deleted or destroyed (or that has none yet) is gone:
    // its secret cannot be read; create writes a new version on top of it.
    const current = meta.current_version > 0 ? await client.read(mount, path, meta.current_version) : undefined;
    if (!current?.data) return undefined;
    return {
      fields: {
        mount, path,
        data: current.data,
        customMetadata: meta.custom_metadata ?? {},
        maxVersions: meta.max_versions,
        casRequired: meta.cas_required,
        deleteVersionAfter: normalDuration(meta.delete_version_after),
      },
      outputs: { version: meta.current_version },
    };
  },

  async create(ctx, spec): Promise<Written> {
    const mount = spec.mount as string;
    const path = spec.path as string;
    // A key holding versions belongs to someone else: refuse before touching its metadata.
    // (Metadata without versions is what a create interrupted after its first call leaves.)
    const existing = await kv(ctx).readMetadata(mount, path);
    let cas = 0;
    if (existing && existing.current_version > 0) {
      // A key whose latest version was soft-deleted or destroyed reads as gone: a new version restores it.
      const latest = existing.versions?.[String(existing.current_version)];
      const deleted = latest && (latest.destroyed || (latest.deletion_time !== '' && Date.parse(latest.deletion_time) <= Date.now()));
      const live = latest && !deleted;
      if (live) throw concurrentWriter(ctx, mount, path, 0);
      cas = existing.current_version;
    }
    await kv(ctx).writeMetadata(mount, path, metadataBody(spec));
    const version = await writeWithCas(ctx, mount, path, spec.data as Record<string, unknown>, cas);
    return { id: `${mount}/${path}`, outputs: { version } };
  },

  async update(ctx, id, spec, changes: readonly FieldChange[], prior: PriorRecord): Promise<Written> {
    const { mount, path } = splitId(id, spec);
    const client = kv(ctx);
    const touched = new Set(changes.map((c) => topKey(c.path)));
    if (METADATA_FIELDS.some((f) => touched.has(f))) await client.writeMetadata(mount, path, metadataBody(spec));
    let version = prior.outputs.version as number | undefined;
    if (touched.has('data')) {
      // The version converge saw just now: a writer in between makes the cas fail.
      const meta = await client.readMetadata(mount, path);
      version = await writeWithCas(ctx, mount, path, spec.data as Record<string, unknown>, meta?.current_version ?? 0);
    } else {
      version = (await client.readMetadata(mount, path))?.current_version ?? version;
    }
    return { id, outputs: { version } };
  },

  async delete(ctx, id, prior) {
    const { mount, path } = splitId(id, prior.spec);
    await kv(ctx).deleteMetadata(mount, path);
  },
};
