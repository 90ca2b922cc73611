import { FieldChange, HandlerContext, Observed, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { fromWire, KindSchema, resourceMetadata, toWire } from '../../core/schema';
import { pathImportId, splitApiPath, touchedFields } from './engine-util';
import { SecretsPolicyOf } from './policy-paths';

/**
 * A request body of a spec: every field under its wire name; a write-only secret (a root or bind
 * password) only on create and when a plan changes it, never re-sent otherwise: after a root rotation
 * only the service knows the current one, and sending the old one again would break it.
 */
export function bodyOf(schema: KindSchema, spec: Spec, changes?: readonly FieldChange[]): Record<string, unknown> {
  const body = toWire(schema, schema.fields, spec);
  const touched = changes && touchedFields(changes);
  for (const [key, field] of Object.entries(schema.fields)) {
    if (field.type !== 'secret' || !field.writeOnly) continue;
    if ((touched && !touched.has(key)) || typeof spec[key] !== 'string') delete body[key];
  }
  return body;
}

/** The calls of an engine's objects of one kind, at `<mount>/<section>/<name>`, with the bodies on the wire. */
export interface PathObjectCalls {
  /** The object as read (wire names; reshaped where the read differs from the write), undefined when absent. */
  read(ctx: HandlerContext, mount: string, name: string): Promise<object | undefined>;
  write(ctx: HandlerContext, mount: string, name: string, body: Record<string, unknown>): Promise<void>;
  /** Deletes; an object already gone is success. */
  remove(ctx: HandlerContext, mount: string, name: string): Promise<void>;
  /** Run once after the create (a root rotation). */
  afterCreate?(ctx: HandlerContext, mount: string, name: string, spec: Spec): Promise<void>;
  /** Server-assigned attributes of a read body. */
  outputs?(body: any): Record<string, unknown>;
}

/** What a kind of engine object says beyond its schema and section. */
export interface PathObjectOptions {
  /** An import id, for the message that refuses another shape (`database/roles/app`). */
  readonly importExample: string;
  /** What the plan warns of when the object is deleted or replaced. */
  readonly destroyWarning?: string;
  readonly calls: PathObjectCalls;
  /**
   * Adjusts the fields read where the API is particular (a mesh-token role answers the fields of
   * every mesh version): `fields` as read through the schema, `raw` the body, `desired` the app's spec.
   */
  readonly observe?: (fields: Spec, raw: Record<string, unknown>, desired?: Spec) => Spec;
  /** The ACL paths the kind's requests need (`ResourceHandler.permissions`). */
  readonly permissions: SecretsPolicyOf;
  /** The ACL paths its lookup (`fromName`) reads, where the construct has one. */
  readonly lookupPermissions?: SecretsPolicyOf;
}

/**
 * The lifecycle of an engine object named by a path `<mount>/<section>/<name>` (a database role, a
 * directory library set, a token engine's role, …): identity and import id are that path; the body is
 * the schema's fields on the wire, and the read maps the answer back through the same schema.
 */
export function pathObjectHandler(schema: KindSchema, section: string, opts: PathObjectOptions): ResourceHandler {
  const { calls } = opts;
  const idOf = (mount: unknown, name: unknown) => `${mount}/${section}/${name}`;
  return {
    ...resourceMetadata(schema),
    ...(opts.destroyWarning !== undefined ? { destroyWarning: opts.destroyWarning } : {}),
    permissions: opts.permissions,
    ...(opts.lookupPermissions ? { lookupPermissions: opts.lookupPermissions } : {}),
    naturalId: (spec) => idOf(spec.mount, spec.name),
    importId: (id) => pathImportId(id, section, opts.importExample),

    async read(ctx, id, desired): Promise<Observed | undefined> {
      const { mount, name } = splitApiPath(id, section);
      const body = await calls.read(ctx, mount, name) as Record<string, unknown> | undefined;
      if (!body) return undefined;
      const fields = { ...fromWire(schema, schema.fields, body), mount, name };
      return { fields: opts.observe ? opts.observe(fields, body, desired) : fields, ...(calls.outputs ? { outputs: calls.outputs(body) } : {}) };
    },

    async create(ctx, spec): Promise<Written> {
      const mount = spec.mount as string;
      const name = spec.name as string;
      await calls.write(ctx, mount, name, bodyOf(schema, spec));
      await calls.afterCreate?.(ctx, mount, name, spec);
      return { id: idOf(mount, name) };
    },

    async update(ctx, id, spec, changes): Promise<Written> {
      const { mount, name } = splitApiPath(id, section);
      await calls.write(ctx, mount, name, bodyOf(schema, spec, changes));
      return { id };
    },

    async delete(ctx, id) {
      const { mount, name } = splitApiPath(id, section);
      await calls.remove(ctx, mount, name);
    },
  };
}
