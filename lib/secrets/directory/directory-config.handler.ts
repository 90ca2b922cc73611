import { HandlerContext, Observed, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { fromWire, resourceMetadata } from '../../core/schema';
import { secretsClient } from '../shared/engine-util';
import { bodyOf } from '../shared/path-object-handler';
import { DirectoryClient } from './directory-client';
import { DIRECTORY_CONFIG } from './directory-config.schema';
import { policyPath, seg } from '../shared/policy-paths';

function client(ctx: HandlerContext): DirectoryClient {
  return new DirectoryClient(secretsClient(ctx), ctx.address);
}

const mountOf = (id: string) => id.replace(/\/config$/, '');

/** A password policy or length/formatter, never both (the service refuses both). */
function withPasswordRule(spec: Spec, body: Record<string, unknown>): Record<string, unknown> {
  if (spec.passwordPolicy) {
    delete body.length;
    delete body.formatter;
  } else {
    delete body.password_policy;
  }
  return body;
}

/**
 * Lifecycle of `secrets.DirectoryConfig` (`{mount}/config`, id `<mount>/config`). `bindpass` is
 * write-only: sent on create and only when a plan changes it (after rotate-root only the service
 * knows the bind password, and re-sending the old one would break the engine).
 */
export const directoryConfigHandler: ResourceHandler = {
  ...resourceMetadata(DIRECTORY_CONFIG),
  permissions: (s) => [policyPath(`${seg(s.mount)}/config`, 'read', 'update', 'delete')],
  destroyWarning: 'deletes the directory engine configuration: roles and library sets stop working, and a bind password rotated by the service is lost with it',

  naturalId: (spec) => `${spec.mount}/config`,
  importId(id) {
    if (!/^[^/].*\/config$/.test(id)) throw new Error(`import id "${id}" must be <mount>/config, e.g. directory/config`);
    return id;
  },

  async read(ctx, id): Promise<Observed | undefined> {
    const mount = mountOf(id);
    const c = await client(ctx).readConfig(mount);
    if (!c) return undefined;
    return { fields: { ...fromWire(DIRECTORY_CONFIG, DIRECTORY_CONFIG.fields, c as unknown as Record<string, unknown>), mount } };
  },

  async create(ctx, spec): Promise<Written> {
    await client(ctx).writeConfig(spec.mount as string, withPasswordRule(spec, bodyOf(DIRECTORY_CONFIG, spec)));
    return { id: `${spec.mount}/config` };
  },

  async update(ctx, id, spec, changes): Promise<Written> {
    await client(ctx).writeConfig(mountOf(id), withPasswordRule(spec, bodyOf(DIRECTORY_CONFIG, spec, changes)));
    return { id };
  },

  async delete(ctx, id) {
    await client(ctx).deleteConfig(mountOf(id));
  },
};
