import { FieldChange, HandlerContext, Observed, ResourceHandler, Spec, Written } from '../../core/engine/handler';
import { DirectoryClient, DirectoryConfigInput } from './directory-client';
import { normalDuration } from '../../core/duration';
import { secretsClient, touchedFields } from '../engine-util';

function client(ctx: HandlerContext): DirectoryClient {
  return new DirectoryClient(secretsClient(ctx), ctx.address);
}

const mountOf = (id: string) => id.replace(/\/config$/, '');

/** The configuration body: `bindpass` only when `withBindpass`; a password policy or length/formatter, never both. */
function body(spec: Spec, withBindpass: boolean): DirectoryConfigInput {
  const policy = spec.passwordPolicy as string;
  return {
    binddn: spec.binddn as string,
    ...(withBindpass && typeof spec.bindpass === 'string' ? { bindpass: spec.bindpass } : {}),
    url: spec.url as string,
    userdn: spec.userdn as string,
    upndomain: spec.upndomain as string,
    certificate: spec.certificate as string,
    insecure_tls: spec.insecureTls as boolean,
    starttls: spec.starttls as boolean,
    tls_min_version: spec.tlsMinVersion as string,
    tls_max_version: spec.tlsMaxVersion as string,
    request_timeout: spec.requestTimeout as string,
    ttl: spec.ttl as string,
    max_ttl: spec.maxTtl as string,
    last_rotation_tolerance: spec.lastRotationTolerance as string,
    ...(policy ? { password_policy: policy } : { length: spec.length as number, formatter: spec.formatter as string }),
  };
}

/**
 * Lifecycle of `secrets.DirectoryConfig` (`{mount}/config`, id `<mount>/config`). `bindpass` is
 * write-only: sent on create and only when a plan changes it (after rotate-root only the service
 * knows the bind password, and re-sending the old one would break the engine).
 */
export const directoryConfigHandler: ResourceHandler = {
  kind: 'secrets.DirectoryConfig',
  api: 'secrets',
  replaceFields: ['mount'],
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
    return {
      fields: {
        mount, binddn: c.binddn, url: c.url, userdn: c.userdn, upndomain: c.upndomain, certificate: c.certificate,
        insecureTls: c.insecure_tls, starttls: c.starttls, tlsMinVersion: c.tls_min_version, tlsMaxVersion: c.tls_max_version,
        ...(c.request_timeout !== undefined ? { requestTimeout: normalDuration(c.request_timeout) } : {}),
        ttl: normalDuration(c.ttl),
        maxTtl: normalDuration(c.max_ttl),
        ...(c.password_policy !== undefined ? { passwordPolicy: c.password_policy } : {}),
        length: c.length,
        ...(c.formatter !== undefined ? { formatter: c.formatter } : {}),
        ...(c.last_rotation_tolerance !== undefined
          ? { lastRotationTolerance: normalDuration(c.last_rotation_tolerance) } : {}),
      },
    };
  },

  async create(ctx, spec): Promise<Written> {
    await client(ctx).writeConfig(spec.mount as string, body(spec, true));
    return { id: `${spec.mount}/config` };
  },

  async update(ctx, id, spec, changes: readonly FieldChange[]): Promise<Written> {
    await client(ctx).writeConfig(mountOf(id), body(spec, touchedFields(changes).has('bindpass')));
    return { id };
  },

  async delete(ctx, id) {
    await client(ctx).deleteConfig(mountOf(id));
  },
};
