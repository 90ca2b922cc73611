import { DataSourceHandler, HandlerContext, Observed, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { topKey } from '../../core/engine/diff';
import { ApiError } from '../../core/http/api-error';
import { dataSourceMetadata, fromWire, KindSchema, resourceMetadata, toWire, wireName, writeOnlyFieldsOf } from '../../core/schema';
import { EngineClient, mountPath, segment } from '../client/engine-client';
import { SecretsClient } from '../client/secrets-client';
import { LeaseFields, leaseOutputs } from './lease';
import { SecretsPolicyOf } from './policy-paths';

/** Helpers every secrets engine's handlers share. */

/** The secrets client of a handler's context. */
export function secretsClient(ctx: HandlerContext): SecretsClient {
  return new SecretsClient(ctx.http);
}

/**
 * Splits an API-path id `<mount>/<section>/<name>` at the last `/<section>/` (mounts may hold slashes);
 * undefined when the id has another shape.
 */
export function splitPathId(id: string, section: string): { mount: string; name: string } | undefined {
  const at = id.lastIndexOf(`/${section}/`);
  if (at <= 0) return undefined;
  const name = id.slice(at + section.length + 2);
  if (!name || name.includes('/')) return undefined;
  return { mount: id.slice(0, at), name };
}

/** As `splitPathId`, for an id converge recorded itself: another shape is an error. */
export function splitApiPath(id: string, section: string): { mount: string; name: string } {
  const parts = splitPathId(id, section);
  if (!parts) throw new Error(`id "${id}" must be <mount>/${section}/<name>`);
  return parts;
}

/** Checks an import id of the form `<mount>/<section>/<name>` (`database/roles/app`). */
export function pathImportId(id: string, section: string, example: string): string {
  if (!splitPathId(id, section)) throw new Error(`import id "${id}" must be <mount>/${section}/<name>, e.g. ${example}`);
  return id;
}

/** The names of the top-level fields a plan's changes touch. */
export function touchedFields(changes: readonly { path: string }[]): Set<string> {
  return new Set(changes.map((c) => topKey(c.path)));
}

/** The 404 a read of an absent object answers, for data sources that need the object. */
export function secretNotFound(what: string, method: string, path: string, address: string): ApiError {
  return new ApiError(404, [what], method, path, 'secrets', address, 'SECRETS_TOKEN');
}

/**
 * Calls of an engine whose roles live at `{mount}/<section>/<name>` and hand out credentials at
 * `{mount}/creds/<name>` (the platform-token and mesh-token engines).
 */
export abstract class RoleEngineClient<RoleData, RoleInput> extends EngineClient {
  protected constructor(secrets: SecretsClient, constructPath: string | undefined, private readonly section: string) {
    super(secrets, constructPath);
  }

  /** A role; undefined when absent. */
  public async readRole(mount: string, name: string): Promise<RoleData | undefined> {
    return (await this.read<RoleData>(this.rolePath(mount, name)))?.data;
  }

  public async writeRole(mount: string, name: string, input: RoleInput): Promise<void> {
    await this.call('POST', this.rolePath(mount, name), input);
  }

  /** Role names; empty when none. */
  public listRoles(mount: string): Promise<string[]> {
    return this.names(`${mountPath(mount)}/${this.section}`);
  }

  /** Deletes a role; success when absent. */
  public async deleteRole(mount: string, name: string): Promise<void> {
    await this.call('DELETE', this.rolePath(mount, name));
  }

  /** Credentials of a role: the data with its lease (`lease_id` empty and `lease_duration` 0 when none). */
  protected async credsOf<T>(mount: string, name: string): Promise<T & LeaseFields> {
    const e = (await this.call<T>('GET', `${mountPath(mount)}/creds/${segment(name)}`))!;
    return { ...e.data, lease_id: e.lease_id, lease_duration: e.lease_duration, renewable: e.renewable };
  }

  protected rolePath(mount: string, name: string): string {
    return `${mountPath(mount)}/${this.section}/${segment(name)}`;
  }
}

/** How a secrets object addressed by a fixed path below its mount (`{mount}/config`) is read and written. */
export interface MountSettingsApi {
  read(ctx: HandlerContext, mount: string): Promise<object | undefined>;
  write(ctx: HandlerContext, mount: string, body: Record<string, unknown>): Promise<void>;
  /** Deletes; undefined when the service has no delete (the settings go with the mount). */
  delete?(ctx: HandlerContext, mount: string): Promise<void>;
}

/**
 * The handler of an engine's settings at `{mount}/<suffix>` (an access configuration), driven by
 * its schema. Write-only fields (a token) are sent on create and, on update, when `resendWriteOnly`
 * is `always` (the service needs them on every write) or when they changed.
 */
export function mountSettingsHandler(o: {
  schema: KindSchema; suffix: string; example: string; api: MountSettingsApi; resendWriteOnly: 'always' | 'when-changed';
  /** The ACL paths the kind's requests need (`ResourceHandler.permissions`). */
  permissions: SecretsPolicyOf;
}): ResourceHandler {
  const { schema, suffix } = o;
  const mountOf = (id: string) => id.slice(0, -(suffix.length + 1));
  const writeOnly = writeOnlyFieldsOf(schema);
  const write = async (ctx: HandlerContext, spec: Spec, send: (field: string) => boolean): Promise<Written> => {
    const body = toWire(schema, Object.fromEntries(Object.entries(schema.fields).filter(([k]) => !writeOnly.includes(k) || send(k))), spec);
    await o.api.write(ctx, spec.mount as string, body);
    return { id: `${spec.mount}/${suffix}` };
  };
  return {
    ...resourceMetadata(schema),
    permissions: o.permissions,
    naturalId: (spec) => `${spec.mount}/${suffix}`,
    importId(id) {
      if (!id.endsWith(`/${suffix}`) || id.startsWith('/') || mountOf(id) === '') throw new Error(`import id "${id}" must be <mount>/${suffix}, e.g. ${o.example}`);
      return id;
    },
    async read(ctx, id): Promise<Observed | undefined> {
      const mount = mountOf(id);
      const body = await o.api.read(ctx, mount);
      return body ? { fields: { mount, ...fromWire(schema, schema.fields, body as Record<string, unknown>) } } : undefined;
    },
    create: (ctx, spec) => write(ctx, spec, () => true),
    update: (ctx, _id, spec, changes) => {
      const touched = touchedFields(changes);
      return write(ctx, spec, (k) => o.resendWriteOnly === 'always' || touched.has(k));
    },
    async delete(ctx, id) {
      if (!o.api.delete) return;
      try {
        await o.api.delete(ctx, mountOf(id));
      } catch (e) {
        if (!(e instanceof ApiError && e.status === 404)) throw e;
      }
    },
  };
}

/**
 * The data source of an engine's credentials (`GET {mount}/creds/<role>`): every output of its schema
 * read by its wire name (absent: empty), the lease kept beside them (`leaseOutputs`), so that a plan
 * reuses leased credentials while they are good instead of making new ones.
 */
export function credentialsHandler(schema: KindSchema,
  creds: (ctx: HandlerContext, mount: string, role: string) => Promise<object & LeaseFields>,
  leaseOf: (outputs: Record<string, unknown>) => { issuedAt: number; expiresAt: number } | undefined): DataSourceHandler {
  const empty = { string: '', number: 0, boolean: false, json: null } as const;
  return {
    ...dataSourceMetadata(schema),
    async read(ctx, spec) {
      const c = await creds(ctx, spec.mount as string, spec.role as string);
      const raw = c as unknown as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [k, o] of Object.entries(schema.outputs ?? {})) out[k] = raw[wireName(schema, k, { type: 'string' })] ?? empty[o.type];
      return { ...out, ...leaseOutputs(c) };
    },
    leaseOf,
    // When it was read (and so when a lease would end) is no change of the credentials: the lease id is.
    stableForm: ({ leaseStartTime: _s, leaseExpiresAt: _e, ...rest }) => rest,
  };
}
