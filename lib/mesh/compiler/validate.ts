/**
 * Per-kind validation of configuration entries, with the mesh system's own messages.
 * A failure is answered 500 with the message, as the mesh system does.
 */
import { durationNs } from './duration';
import { checkFilterSyntax } from './filter';
import {
  ConfigEntry, MESH_GATEWAY_MODES, MeshGatewayConfig, PROXY_DEFAULTS, ProxyDefaultsEntry, SERVICE_DEFAULTS, SERVICE_RESOLVER,
  SERVICE_ROUTER, SERVICE_SPLITTER, ServiceDefaultsEntry, ServiceResolverEntry, ServiceRouterEntry, ServiceSplitterEntry,
  SERVICE_INTENTIONS, ServiceIntentionsEntry,
} from './entries';

/** An entry the mesh system refuses. */
export class EntryValidationError extends Error {}

const fail = (msg: string): never => { throw new EntryValidationError(msg); };

/** Subset names end up in SNI headers, so they must be DNS labels (RFC 1123). */
const DNS_LABEL = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

export function validateServiceSubset(name: string): string | undefined {
  if (name === '' || name.length > 63) return 'must be non-empty and 63 characters or fewer';
  if (!DNS_LABEL.test(name)) {
    return "must be 63 characters or fewer, begin or end with lower case alphanumeric characters, and contain lower case alphanumeric characters or '-' in between";
  }
  return undefined;
}

/** Validates one decoded entry; throws `EntryValidationError`. */
export function validateEntry(e: ConfigEntry, o: ValidateOptions = {}): void {
  if (!e.Name) fail('Name is required');
  switch (e.Kind) {
    case SERVICE_DEFAULTS: return validateServiceDefaults(e);
    case PROXY_DEFAULTS: return validateProxyDefaults(e);
    case SERVICE_RESOLVER: return validateResolver(e);
    case SERVICE_SPLITTER: return validateSplitter(e, !!o.asServer);
    case SERVICE_ROUTER: return validateRouter(e, !!o.asServer);
    case SERVICE_INTENTIONS: return validateIntentions(e);
  }
}

/** The HTTP methods an intention permission may name (Go's `net/http` method constants). */
export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE'];

/** `*` alone, or a name without `*`: the mesh refuses a partial wildcard. */
function checkWildcard(name: string, prefix: string): void {
  if (name.includes('*') && name !== '*') fail(`${prefix}wildcard character '*' cannot be used with partial values`);
}

/** As the mesh (Consul 1.16) validates a `service-intentions` entry, with its messages. */
function validateIntentions(e: ServiceIntentionsEntry): void {
  checkWildcard(e.Name, 'Name: ');
  const sources = e.Sources ?? [];
  if (!sources.length) fail('At least one source is required');
  const seen = new Set<string>();
  sources.forEach((src, i) => {
    if (!src.Name) fail(`Sources[${i}].Name is required`);
    checkWildcard(src.Name!, `Sources[${i}].Name: `);
    if (seen.has(src.Name!)) fail(`Sources[${i}] defines "${src.Name}" more than once`);
    seen.add(src.Name!);
    if (src.Type !== undefined && src.Type !== 'consul') fail(`Sources[${i}].Type must be set to 'consul'`);
    const permissions = src.Permissions ?? [];
    if (!permissions.length) {
      if (src.Action !== 'allow' && src.Action !== 'deny') fail(`Sources[${i}].Action must be set to 'allow' or 'deny'`);
    } else if (src.Action) {
      fail(`Sources[${i}].Action must be omitted if Permissions are specified`);
    }
    permissions.forEach((perm, j) => {
      if (perm.Action !== 'allow' && perm.Action !== 'deny') fail(`Sources[${i}].Permissions[${j}].Action must be set to 'allow' or 'deny'`);
      const prefix = `Sources[${i}].Permissions[${j}].HTTP`;
      const http = perm.HTTP;
      if (!http) return fail(`${prefix} is required`);
      let pathParts = 0;
      for (const [field, path] of [['PathExact', http.PathExact], ['PathPrefix', http.PathPrefix]] as const) {
        if (!path) continue;
        pathParts++;
        if (!path.startsWith('/')) fail(`${prefix}.${field} doesn't start with '/': ${JSON.stringify(path)}`);
      }
      if (http.PathRegex) pathParts++;
      if (pathParts > 1) fail(`${prefix} should only contain at most one of PathExact, PathPrefix, or PathRegex`);
      let permParts = 0;
      (http.Header ?? []).forEach((h, k) => {
        if (!h.Name) fail(`${prefix}.Header[${k}] missing required Name field`);
        const parts = [h.Present, h.Exact, h.Prefix, h.Suffix, h.Regex].filter((x) => x !== undefined && x !== false && x !== '').length;
        if (parts !== 1) fail(`${prefix}.Header[${k}] should only contain one of Present, Exact, Prefix, Suffix, or Regex`);
        permParts++;
      });
      const methods = http.Methods ?? [];
      const found = new Set<string>();
      for (const m of methods) {
        if (!HTTP_METHODS.includes(m.toUpperCase())) fail(`${prefix}.Methods contains an invalid method ${JSON.stringify(m)}`);
        if (found.has(m)) fail(`${prefix}.Methods contains ${JSON.stringify(m)} more than once`);
        found.add(m);
      }
      if (methods.length) permParts++;
      if (pathParts === 0 && permParts === 0) fail(`${prefix} should not be empty`);
    });
  });
}

function validateMeshGateway(mg: MeshGatewayConfig | undefined): void {
  const mode = mg?.Mode ?? '';
  if (!MESH_GATEWAY_MODES.includes(mode)) fail(`Invalid Mesh Gateway mode "${mode}"`);
}

function validateServiceDefaults(e: ServiceDefaultsEntry): void {
  if (e.Name === '*') fail('service-defaults name must be the name of a service, and not a wildcard');
  validateMeshGateway(e.MeshGateway);
}

function validateProxyDefaults(e: ProxyDefaultsEntry): void {
  if (e.Name !== 'global') fail(`invalid name ("${e.Name}"), only "global" is supported`);
  if (e.Namespace && e.Namespace !== 'default') fail('proxy-defaults can only be written in the "default" namespace');
  validateMeshGateway(e.MeshGateway);
}

function validateResolver(e: ServiceResolverEntry): void {
  const subsets = e.Subsets ?? {};
  for (const [name, subset] of Object.entries(subsets)) {
    if (name === '') fail('Subset defined with empty name');
    const bad = validateServiceSubset(name);
    if (bad) fail(`Subset "${name}" is invalid: ${bad}`);
    if (subset.Filter) {
      const err = checkFilterSyntax(subset.Filter);
      if (err) fail(`Filter for subset "${name}" is not a valid expression: ${err}`);
    }
  }
  const isSubset = (s: string) => Object.prototype.hasOwnProperty.call(subsets, s);
  if (e.DefaultSubset && !isSubset(e.DefaultSubset)) fail(`DefaultSubset "${e.DefaultSubset}" is not a valid subset`);

  const failover = e.Failover ?? {};
  if (e.Redirect) {
    const r = e.Redirect;
    if (Object.keys(failover).length > 0) fail('Redirect and Failover cannot both be set');
    if (!r.Service && !r.ServiceSubset && !r.Namespace && !r.Datacenter) fail('Redirect is empty');
    if (!r.Service) {
      if (r.ServiceSubset) fail('Redirect.ServiceSubset defined without Redirect.Service');
      if (r.Namespace) fail('Redirect.Namespace defined without Redirect.Service');
    } else if (r.Service === e.Name && r.ServiceSubset && !isSubset(r.ServiceSubset)) {
      fail(`Redirect.ServiceSubset "${r.ServiceSubset}" is not a valid subset of "${r.Service}"`);
    }
  }
  for (const [subset, f] of Object.entries(failover)) {
    if (subset !== '*' && !isSubset(subset)) fail(`Bad Failover["${subset}"]: not a valid subset`);
    if (!f.Service && !f.ServiceSubset && !f.Namespace && !(f.Datacenters ?? []).length) {
      fail(`Bad Failover["${subset}"] one of Service, ServiceSubset, Namespace, or Datacenters is required`);
    }
    if (f.ServiceSubset && (!f.Service || f.Service === e.Name) && !isSubset(f.ServiceSubset)) {
      fail(`Bad Failover["${subset}"].ServiceSubset "${f.ServiceSubset}" is not a valid subset of "${f.Service || e.Name}"`);
    }
    for (const dc of f.Datacenters ?? []) if (!dc) fail(`Bad Failover["${subset}"].Datacenters: found empty datacenter`);
  }
  if (durationNs(e.ConnectTimeout) < 0) fail(`Bad ConnectTimeout '${e.ConnectTimeout}', must be >= 0`);
}

/** Weights are compared in hundredths, as the mesh system does. */
export const scaleWeight = (w: number): number => Math.round(w * 100);

/** How to validate. */
export interface ValidateOptions {
  /**
   * Only what the real server checks (the emulator): it accepts a negative split weight (the sum is
   * still 100) and a negative `RequestTimeout`, which a construct refuses.
   */
  readonly asServer?: boolean;
}

function validateSplitter(e: ServiceSplitterEntry, asServer: boolean): void {
  const splits = e.Splits ?? [];
  if (splits.length === 0) fail('no splits configured');
  const seen = new Set<string>();
  let sum = 0;
  for (const s of splits) {
    const key = JSON.stringify([s.Service || e.Name, s.ServiceSubset ?? '', s.Namespace ?? '']);
    if (seen.has(key)) {
      fail(`split destination occurs more than once: service="${s.Service || e.Name}", subset="${s.ServiceSubset ?? ''}", namespace="${s.Namespace ?? ''}"`);
    }
    seen.add(key);
    if (!asServer && (s.Weight ?? 0) < 0) fail(`split weight must be >= 0, not ${s.Weight}`);
    sum += scaleWeight(s.Weight ?? 0);
  }
  if (sum !== 10000) fail(`the sum of all split weights must be 100, not ${(sum / 100).toFixed(6)}`);
}

function validateRouter(e: ServiceRouterEntry, asServer: boolean): void {
  (e.Routes ?? []).forEach((route, i) => {
    let eligibleForPrefixRewrite = false;
    const http = route.Match?.HTTP;
    if (http) {
      let pathParts = 0;
      for (const p of [http.PathExact, http.PathPrefix]) {
        if (!p) continue;
        eligibleForPrefixRewrite = true;
        pathParts++;
        if (!p.startsWith('/')) fail(`Route[${i}] doesn't start with '/': "${p}"`);
      }
      if (pathParts > 1) fail(`Route[${i}] should only contain at most one of PathExact, PathPrefix, or PathRegex`);
      (http.Header ?? []).forEach((h, j) => {
        if (!h.Name) fail(`Route[${i}] Header[${j}] missing required Name field`);
        const parts = [h.Present, h.Exact, h.Prefix, h.Suffix].filter((x) => x !== undefined && x !== false && x !== '').length;
        if (parts !== 1) fail(`Route[${i}] Header[${j}] should only contain one of Present, Exact, Prefix, Suffix, or Regex`);
      });
    }
    const d = route.Destination;
    if (d) {
      if (d.PrefixRewrite && !eligibleForPrefixRewrite) {
        fail(`Route[${i}] cannot make use of PrefixRewrite without configuring either PathExact or PathPrefix`);
      }
      if ((d.NumRetries ?? 0) < 0) fail(`Route[${i}] NumRetries must be >= 0`);
      if (!asServer && durationNs(d.RequestTimeout) < 0) fail(`Route[${i}] RequestTimeout must be >= 0`);
      for (const code of d.RetryOnStatusCodes ?? []) {
        if (code < 100 || code > 599) fail(`Route[${i}] RetryOnStatusCodes contains an invalid status code ${code}`);
      }
    }
  });
}
