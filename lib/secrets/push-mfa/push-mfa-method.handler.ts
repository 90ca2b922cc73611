import { Candidate, HandlerContext, Observed, ResourceHandler, Spec } from '../../core/engine/handler';
import { PushMfaClient, PushMfaMethodInput } from './push-mfa-client';
import { secretsClient } from '../engine-util';

const client = (ctx: HandlerContext) => new PushMfaClient(secretsClient(ctx), ctx.address);
const PREFIX = 'identity/mfa/method/pushmfa/';

/** Every write carries the keys: the service requires them on each write. */
function input(spec: Spec): PushMfaMethodInput {
  return {
    method_name: spec.methodName as string, secret_key: String(spec.secretKey), integration_key: String(spec.integrationKey),
    api_hostname: spec.apiHostname as string, username_format: spec.usernameFormat as string,
    push_info: spec.pushInfo as string, use_passcode: spec.usePasscode as boolean,
  };
}

/**
 * Lifecycle of `secrets.PushMfaMethod`. The id is the UUID the service assigns; a method left by
 * an interrupted create is found again by its unique `method_name`. The keys are write-only here
 * (compared by HMAC with the last apply), though the service answers them.
 */
export const pushMfaMethodHandler: ResourceHandler = {
  kind: 'secrets.PushMfaMethod',
  api: 'secrets',
  replaceFields: [],

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
    return {
      fields: {
        methodName: m.name, apiHostname: m.api_hostname, usernameFormat: m.username_format, pushInfo: m.pushinfo,
        usePasscode: m.use_passcode,
      },
      outputs: { methodId: m.id },
    };
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
