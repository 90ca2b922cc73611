import { FieldChange, HandlerContext, IncompleteCreate, Observed, PrefetchWant, PriorRecord, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { ApiError } from '../../core/http/api-error';
import { normalDuration } from '../../core/duration';
import { FieldsSchema, fromWire, resourceMetadata, toWire } from '../../core/schema';
import { KvClient, KvKeyMetadata, KvKeyMetadataInput } from './kv-client';
import { SecretsClient } from '../client/secrets-client';
import { touchedFields } from '../shared/engine-util';
import { KV_SECRET } from './kv-secret.schema';
import { keyPath, policyPath, seg } from '../shared/policy-paths';

const CAS_MISMATCH = 'check-and-set parameter did not match the current version';
/** The fields of the key metadata body (`{mount}/metadata/<path>`); `data` goes to the version body. */
const METADATA: FieldsSchema = Object.fromEntries(Object.entries(KV_SECRET.fields).filter(([k]) => !['mount', 'path', 'data'].includes(k)));
const METADATA_FIELDS = Object.keys(METADATA);

function kv(ctx: HandlerContext): KvClient {
  return new KvClient(new SecretsClient(ctx.http), ctx.address);
}

/** `<mount>/<path>` -> mount and path; the desired spec disambiguates a mount holding slashes. */
function splitId(id: string, spec?: Spec): { mount: string; path: string } {
  const mount = typeof spec?.mount === 'string' && id.startsWith(`${spec.mount}/`) ? spec.mount : id.split('/')[0];
  return { mount, path: id.slice(mount.length + 1) };
}

function metadataBody(spec: Spec): KvKeyMetadataInput {
  return toWire(KV_SECRET, METADATA, spec) as unknown as KvKeyMetadataInput;
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

/** Whether a metadata prop differs from the engine's defaults (then a create writes metadata too). */
function metadataIsDefault(spec: Spec): boolean {
  const custom = spec.customMetadata as Record<string, string> | undefined;
  return (spec.maxVersions ?? 0) === 0 && spec.casRequired !== true && durationIsZero(spec.deleteVersionAfter)
    && (!custom || Object.keys(custom).length === 0);
}

function durationIsZero(v: unknown): boolean {
  return v === undefined || normalDuration(v) === '0s';
}

/** Whether a key's latest version is soft-deleted (and due) or destroyed: the key reads as gone. */
function latestDeleted(meta: KvKeyMetadata): boolean {
  const latest = meta.versions?.[String(meta.current_version)];
  return !latest || latest.destroyed || (latest.deletion_time !== '' && Date.parse(latest.deletion_time) <= Date.now());
}

/** Lifecycle of `secrets.KvSecret`: a key of a KV version 2 engine, its data and its metadata. */
export const kvSecretHandler: ResourceHandler = {
  ...resourceMetadata(KV_SECRET),
  // read: metadata, then the current version. A create is one data write with cas 0 (`create`: the key does not
  // exist yet); metadata is written after it (an `update`) only where a metadata prop is not the default.
  permissions: (s) => [
    policyPath(`${seg(s.mount)}/metadata/${keyPath(s.path)}`, 'read', 'update', 'delete'),
    policyPath(`${seg(s.mount)}/data/${keyPath(s.path)}`, 'create', 'read', 'update'),
  ],
  // A lookup reads a KV secret as a KvSecret is read: its metadata, then its current version.
  lookupPermissions: (s) => {
    const known = (s.known ?? {}) as Record<string, unknown>;
    return [policyPath(`${seg(known.mount)}/metadata/${keyPath(known.path)}`, 'read'), policyPath(`${seg(known.mount)}/data/${keyPath(known.path)}`, 'read')];
  },
  outputsChangedByUpdate: ['version'],
  destroyWarning: 'deletes the key\'s metadata and every version permanently',

  naturalId(spec) {
    return `${spec.mount}/${spec.path}`;
  },

  importId(id) {
    const s = id.indexOf('/');
    if (s <= 0 || s === id.length - 1) throw new Error(`import id "${id}" must be <mount>/<path>, e.g. secret/app/db`);
    return id;
  },

  /**
   * New keys only (a managed key costs one metadata read, the minimum): one LIST per folder holding
   * two or more of them tells which do not exist, so that their plan needs no read at all.
   */
  async prefetch(ctx, wanted: readonly PrefetchWant[]) {
    const known = new Map<string, Observed | null>();
    const folders = new Map<string, { mount: string; folder: string; keys: { id: string; name: string }[] }>();
    for (const w of wanted) {
      if (w.prior) continue;
      const { mount, path } = splitId(w.id, w.desired);
      const cut = path.lastIndexOf('/');
      const folder = cut < 0 ? '' : path.slice(0, cut);
      const f = folders.get(`${mount}\u0000${folder}`) ?? { mount, folder, keys: [] };
      f.keys.push({ id: w.id, name: path.slice(cut + 1) });
      folders.set(`${mount}\u0000${folder}`, f);
    }
    // The folders side by side: each LIST takes a slot of the API's parallelism (see prefetch.ts).
    await Promise.all([...folders.values()].map(async (f) => {
      if (f.keys.length < 2) return;
      let listed: Set<string>;
      try {
        listed = new Set(await kv(ctx).list(f.mount, f.folder));
      } catch (e) {
        if (e instanceof ApiError && (e.status === 404 || e.status === 403)) return; // read them one by one
        throw e;
      }
      for (const k of f.keys) if (!listed.has(k.name)) known.set(k.id, null);
    }));
    return known;
  },

  /**
   * One metadata read. A version's data never changes, so the data is read only when the current
   * version is not the one converge wrote last; otherwise `data` is left out and compared with what
   * the last apply wrote (its values and HMACs in state).
   */
  async read(ctx, id, desired, prior): Promise<Observed | undefined> {
    const { mount, path } = splitId(id, desired ?? prior?.spec);
    const client = kv(ctx);
    const meta = await client.readMetadata(mount, path);
    if (!meta) return undefined;
    // A key whose latest version is soft-deleted or destroyed (or that has none yet) is gone:
    // its secret cannot be read; create writes a new version on top of it.
    if (meta.current_version <= 0 || latestDeleted(meta)) return undefined;
    const unchanged = prior?.outputs.version === meta.current_version;
    const current = unchanged ? undefined : await client.read(mount, path, meta.current_version);
    if (!unchanged && !current?.data) return undefined;
    return {
      fields: {
        mount, path,
        ...(current ? { data: current.data } : {}),
        // A key without custom metadata answers null: read as the default (none).
        ...fromWire(KV_SECRET, METADATA, { ...meta, custom_metadata: meta.custom_metadata ?? undefined }),
      },
      outputs: { version: meta.current_version },
      version: meta.current_version,
    };
  },

  /** A key whose latest version is deleted or destroyed still has its metadata and older versions. */
  async remains(ctx, id, spec) {
    const { mount, path } = splitId(id, spec);
    const meta = await kv(ctx).readMetadata(mount, path);
    if (!meta) return undefined;
    return meta.current_version <= 0 ? 'it has no version yet' : 'its latest version is deleted';
  },

  /** One write where the API allows it: the data with `cas: 0` (the API refuses a key that exists). */
  async create(ctx, spec): Promise<Written> {
    const mount = spec.mount as string;
    const path = spec.path as string;
    const data = spec.data as Record<string, unknown>;
    let version: number;
    try {
      version = (await kv(ctx).write(mount, path, data, 0)).version;
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 400 && e.apiMessages.some((m) => m.includes(CAS_MISMATCH)))) throw e;
      // The key exists. Only converge's own key whose latest version was deleted outside it is written
      // on top; somebody else's key, even with its versions deleted, is never touched.
      const existing = await kv(ctx).readMetadata(mount, path);
      if (!existing || !latestDeleted(existing)) throw concurrentWriter(ctx, mount, path, 0);
      if (!ctx.recreate) {
        throw new Error(`${ctx.address}: ${mount}/${path} exists (its latest version is deleted) and is not managed by converge; ` +
          `not writing on top of it: to manage it, converge import ${ctx.address.split('/').slice(1).join('/') || ctx.address} ${mount}/${path}`);
      }
      version = await writeWithCas(ctx, mount, path, data, existing.current_version);
    }
    if (!metadataIsDefault(spec)) {
      try {
        await kv(ctx).writeMetadata(mount, path, metadataBody(spec));
      } catch (e) {
        throw new IncompleteCreate(`${mount}/${path}`, e as Error, `the key's data was written (version ${version})`);
      }
    }
    return { id: `${mount}/${path}`, outputs: { version } };
  },

  async update(ctx, id, spec, changes: readonly FieldChange[], prior: PriorRecord): Promise<Written> {
    const { mount, path } = splitId(id, spec);
    const client = kv(ctx);
    const touched = touchedFields(changes);
    if (METADATA_FIELDS.some((f) => touched.has(f))) await client.writeMetadata(mount, path, metadataBody(spec));
    let version = ctx.expectedVersion ?? prior.outputs.version as number | undefined;
    if (touched.has('data')) {
      // Against the version the plan saw: a writer after the plan makes the cas fail.
      const cas = ctx.expectedVersion ?? (await client.readMetadata(mount, path))?.current_version ?? 0;
      version = await writeWithCas(ctx, mount, path, spec.data as Record<string, unknown>, cas);
    }
    return { id, outputs: { version } };
  },

  async delete(ctx, id, prior) {
    const { mount, path } = splitId(id, prior.spec);
    await kv(ctx).deleteMetadata(mount, path);
  },
};
