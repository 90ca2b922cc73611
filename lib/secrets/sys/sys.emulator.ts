import { randomBytes, randomUUID } from 'crypto';
import { EmuResponse } from '../../core/emulator-kit/types';
import { envelope, errors, noContent, objectBody, RequestError } from '../emulator/responses';
import { parseDurationParam } from '../emulator/time';

/** What the mount table keeps of a mount besides its engine (the real service's `sys/mounts` entry). */
export interface MountMeta {
  description: string;
  /** Seconds; 0: the system's default. */
  defaultLeaseTtl: number;
  maxLeaseTtl: number;
  options: Record<string, string>;
  accessor: string;
  uuid: string;
}

/** The mount table as `sys/mounts` sees it: the emulator host owns the engines. */
export interface MountTable {
  types(): string[];
  entries(): [string, { type: string; meta: MountMeta }][];
  get(path: string): { type: string; meta: MountMeta } | undefined;
  add(path: string, type: string, meta: MountMeta): void;
  remove(path: string): void;
  /** Whether `sys`, `auth`, `cubbyhole` and `identity` are refused (the secrets engines' table). */
  readonly reserved: boolean;
  /** The entry's meta changed (a tune): persisted. */
  changed(path: string): void;
}

export const SYS_MOUNTS = 'sys/mounts';
export const SYS_AUTH = 'sys/auth';

/** What differs between the secrets engines' table (`sys/mounts`) and the auth methods' (`sys/auth`, mounted at `auth/<path>`). */
interface TableKind {
  readonly prefix: string;
  readonly absent: (path: string) => string;
  readonly tuneExtra: Record<string, unknown>;
}
const KINDS: Record<string, TableKind> = {
  [SYS_MOUNTS]: { prefix: SYS_MOUNTS, absent: (p) => `No secret engine mount at ${p}/`, tuneExtra: {} },
  [SYS_AUTH]: { prefix: SYS_AUTH, absent: (p) => `No auth engine at ${p}/`, tuneExtra: { token_type: 'default-service' } },
};

/** The system's default and maximum lease TTL (768h), as the real service's dev server has it. */
const SYSTEM_MAX_TTL = 768 * 3600;

/** Paths the service keeps for itself (`cannot mount "sys/"`). */
const RESERVED = ['sys', 'auth', 'cubbyhole', 'identity'];

/** A mount's meta when the emulator mounts it itself (its default mounts, `/__admin/mounts`). */
export function defaultMountMeta(type: string): MountMeta {
  return {
    description: type === 'kv' ? 'key/value secret storage' : '', defaultLeaseTtl: 0, maxLeaseTtl: 0,
    options: type === 'kv' ? { version: '2' } : {}, accessor: accessorOf(type), uuid: randomUUID(),
  };
}

function accessorOf(type: string): string {
  return `${type}_${randomBytes(4).toString('hex')}`;
}

function ttl(v: unknown, what: string): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const s = parseDurationParam(v);
  if (s === undefined) throw new RequestError(400, `unable to parse ${what} TTL of ${String(v)}: time: invalid duration "${String(v)}"`);
  return s;
}

function optionsOf(v: unknown): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new RequestError(400, 'error converting input for field "options": expected a map');
  return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, String(x)]));
}

function view(type: string, m: MountMeta, kind: TableKind = KINDS[SYS_MOUNTS]): Record<string, unknown> {
  return {
    accessor: m.accessor, config: { default_lease_ttl: m.defaultLeaseTtl, force_no_cache: false, max_lease_ttl: m.maxLeaseTtl, ...kind.tuneExtra },
    deprecation_status: 'supported', description: m.description, external_entropy_access: false, local: false,
    options: m.options, plugin_version: '', running_plugin_version: '', running_sha256: '', seal_wrap: false, type, uuid: m.uuid,
  };
}

/**
 * `sys/mounts` (the table), `sys/mounts/<path>` (read, enable, disable) and `sys/mounts/<path>/tune`,
 * answered as OpenBao answers them: nothing mounted reads as a 400 `No secret engine mount at <path>/`,
 * an unknown type is 400 `plugin not found in the catalog`, a path taken or nested in another mount
 * 400 `path is already in use at <path>/`. The emulator's key-value engine is version 2 only: a `kv`
 * mount must say `options.version` "2" (OpenBao would mount version 1).
 */
export function sysMounts(table: MountTable, method: string, path: string, body: unknown, tableOf: typeof SYS_MOUNTS | typeof SYS_AUTH = SYS_MOUNTS): EmuResponse {
  const kind = KINDS[tableOf];
  if (path === kind.prefix) {
    if (method !== 'GET') return errors(405, 'unsupported operation');
    return envelope(Object.fromEntries(table.entries().map(([p, e]) => [`${p}/`, view(e.type, e.meta, kind)])));
  }
  const rest = path.slice(kind.prefix.length + 1).replace(/\/+$/, '');
  if (rest.endsWith('/tune')) {
    const mount = rest.slice(0, -'/tune'.length);
    if (!table.get(mount)) return errors(400, `cannot fetch sysview for path "${mount}/"`);
    return tuneMount(table, method, mount, body, kind);
  }
  const mount = rest;
  switch (method) {
    case 'GET': {
      const e = table.get(mount);
      return e ? envelope(view(e.type, e.meta, kind)) : errors(400, kind.absent(mount));
    }
    case 'POST': return enable(table, mount, objectBody(body));
    case 'DELETE':
      if (table.get(mount)) table.remove(mount);
      return noContent();
    default:
      return errors(405, 'unsupported operation');
  }
}

function enable(table: MountTable, path: string, b: Record<string, unknown>): EmuResponse {
  if (!path) return errors(400, 'path is empty');
  if (table.reserved && RESERVED.some((r) => path === r || path.startsWith(`${r}/`))) return errors(400, `cannot mount "${path}/"`);
  const type = typeof b.type === 'string' ? b.type : '';
  if (!type) return errors(400, 'backend type must be specified as a string');
  if (!table.types().includes(type)) return errors(400, `plugin not found in the catalog: ${type}`);
  const taken = table.entries().map(([p]) => p).find((p) => p === path || path.startsWith(`${p}/`) || p.startsWith(`${path}/`));
  if (taken) return errors(400, `path is already in use at ${taken}/`);
  const config = objectBody(b.config);
  const dflt = ttl(config.default_lease_ttl, 'default') ?? 0;
  const max = ttl(config.max_lease_ttl, 'max') ?? 0;
  if (dflt && max && dflt > max) return errors(400, 'given default lease TTL greater than given max lease TTL');
  const options = optionsOf(b.options);
  if (type === 'kv' && options.version !== '2') {
    return errors(400, 'the emulator serves key-value version 2 only: set options.version to "2"');
  }
  table.add(path, type, {
    description: typeof b.description === 'string' ? b.description : '', defaultLeaseTtl: dflt, maxLeaseTtl: max, options,
    accessor: accessorOf(type), uuid: randomUUID(),
  });
  return noContent();
}

function tuneMount(table: MountTable, method: string, path: string, body: unknown, kind: TableKind): EmuResponse {
  const e = table.get(path)!;
  if (method === 'GET') {
    const m = e.meta;
    return envelope({
      default_lease_ttl: m.defaultLeaseTtl || SYSTEM_MAX_TTL, description: m.description, force_no_cache: false,
      max_lease_ttl: m.maxLeaseTtl || SYSTEM_MAX_TTL, ...(Object.keys(m.options).length ? { options: m.options } : {}), ...kind.tuneExtra,
    });
  }
  if (method !== 'POST') return errors(405, 'unsupported operation');
  const b = objectBody(body);
  const dflt = ttl(b.default_lease_ttl, 'default');
  const max = ttl(b.max_lease_ttl, 'max');
  const next = { ...e.meta, options: { ...e.meta.options } };
  if (dflt !== undefined) next.defaultLeaseTtl = dflt;
  if (max !== undefined) next.maxLeaseTtl = max;
  const effDefault = next.defaultLeaseTtl || SYSTEM_MAX_TTL;
  const effMax = next.maxLeaseTtl || SYSTEM_MAX_TTL;
  if (effDefault > effMax) return errors(400, `backend max lease TTL of ${effMax} would be less than backend default lease TTL of ${effDefault}`);
  if (typeof b.description === 'string') next.description = b.description;
  const options = b.options === undefined ? undefined : optionsOf(b.options);
  if (options) {
    if (e.type === 'kv' && options.version !== undefined && options.version !== '2') {
      return errors(400, `cannot downgrade mount from version ${e.meta.options.version ?? '2'}`);
    }
    Object.assign(next.options, options); // merged, as the service does: an option left out stays
  }
  Object.assign(e.meta, next);
  table.changed(path);
  return noContent();
}
