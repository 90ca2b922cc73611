import { Candidate, HandlerContext, Observed, ResourceHandler, Spec } from '../../core/engine/handler';
import { fromWire, resourceMetadata, toWire } from '../../core/schema';
import { PushMfaClient, PushMfaMethodInput } from './push-mfa-client';
import { secretsClient } from '../shared/engine-util';
import { PUSH_MFA_METHOD } from './push-mfa-method.schema';
import { policyPath } from '../shared/policy-paths';

const client = (ctx: HandlerContext) => new PushMfaClient(secretsClient(ctx), ctx.address);
const PREFIX = 'identity/mfa/method/pushmfa/';

/** Every write carries the keys: the service requires them on each write. */
function input(spec: Spec): PushMfaMethodInput {
  return toWire(PUSH_MFA_METHOD, PUSH_MFA_METHOD.fields, spec) as unknown as PushMfaMethodInput;
}

/**
 * Lifecycle of `secrets.PushMfaMethod`. The id is the UUID the service assigns; a method left by
 * an interrupted create is found again by its unique `method_name`. The keys the service answers
 * are compared with the app's as secrets (a change made outside converge shows as drift, masked).
 */
export const pushMfaMethodHandler: ResourceHandler = {
  ...resourceMetadata(PUSH_MFA_METHOD),
  // Created at the collection (update), then addressed by the server-assigned id; listed to recover after a crash.
  permissions: () => [
    policyPath('identity/mfa/method/pushmfa', 'list', 'update'),
    policyPath('identity/mfa/method/pushmfa/*', 'read', 'update', 'delete'),
  ],

  naturalId: () => undefined,

  async find(ctx, spec): Promise<Candidate[]> {
    const c = client(ctx);
    const found: Candidate[] = [];
    for (const id of await c.list()) if ((await c.get(id))?.name === spec.methodName) found.push({ id });
    return found;
  },

  importId(id) {
    const uuid = id.startsWith(PREFIX) ? id.slice(PREFIX.length) : id;
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(uuid)) {
      throw new Error(`import id "${id}" must be ${PREFIX}<uuid>`);
    }
    return uuid;
  },

  async read(ctx, id): Promise<Observed | undefined> {
    const m = await client(ctx).get(id);
    if (!m) return undefined;
    // The read names the method `name` and its push info `pushinfo` (written as `method_name`, `push_info`).
    const fields = fromWire(PUSH_MFA_METHOD, PUSH_MFA_METHOD.fields, { ...m, method_name: m.name, push_info: m.pushinfo });
    return { fields, outputs: { methodId: m.id } };
  },

  async create(ctx, spec) {
    const id = await client(ctx).create(input(spec));
    return { id, outputs: { methodId: id } };
  },

  async update(ctx, id, spec) {
    await client(ctx).update(id, input(spec));
    return { id, outputs: { methodId: id } };
  },

  async delete(ctx, id) {
    await client(ctx).delete(id);
  },
};
