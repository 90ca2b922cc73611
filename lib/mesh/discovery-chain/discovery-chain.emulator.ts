/**
 * `GET|POST /v1/discovery-chain/<service>`: the compiled chain over the stored entries.
 * POST carries overrides (PascalCase or snake_case keys, as the mesh system decodes them).
 */
import { Router } from '../../core/emulator-kit/router';
import { EmuRequest, EmuResponse, json } from '../../core/emulator-kit/types';
import { blockingOf, Change } from '../emulator/blocking';
import { consistencyOf, permissionDenied, queryMeta, RequestContext, selectNamespace, text } from '../emulator/context';
import { ChainOverrides, CompileError, compileWithTrace, MESH_GATEWAY_MODES, parseGoDuration, PROXY_DEFAULTS, rawField } from '../compiler';

class BadRequest extends Error {}

export function registerDiscoveryChainRoutes(router: Router<RequestContext>): void {
  router.add(['GET', 'POST'], '/v1/discovery-chain', () => text(400, 'Missing chain name'));
  router.add(['GET', 'POST'], '/v1/discovery-chain/*service', (req, p, ctx) => readChain(req, p.service, ctx));
}

async function readChain(req: EmuRequest, service: string, ctx: RequestContext): Promise<EmuResponse> {
  const consistency = consistencyOf(req);
  if (typeof consistency !== 'string') return text(400, consistency.error);
  const blocking = blockingOf(req);
  if ('error' in blocking) return text(400, blocking.error);
  const dc = req.query.get('dc') || ctx.core.datacenter;
  if (!ctx.core.datacenters.includes(dc)) return text(500, 'No path to datacenter');

  let overrides: ChainOverrides = {};
  if (req.method === 'POST') {
    try {
      overrides = decodeOverrides(req.body);
    } catch (e) {
      if (e instanceof InvalidMode) return text(400, 'Invalid OverrideMeshGateway.Mode parameter');
      return text(400, `Request decoding failed: ${(e as Error).message}`);
    }
  }
  const namespace = selectNamespace(req, ctx.caller);
  if (!ctx.caller.canReadService(namespace, service)) {
    return permissionDenied(ctx.caller, 'service:read', service);
  }
  const compile = () => compileWithTrace({
    service, namespace, entries: ctx.core.allEntries(), datacenter: req.query.get('compile-dc') || dc,
    useInDatacenter: dc, trustDomain: ctx.core.trustDomain, overrides, shape: ctx.core.shape,
  });
  try {
    let result = compile();
    if (blocking.index > 0 && blocking.index >= ctx.core.state.index) {
      const services = new Set(result.services);
      await ctx.core.watchers.wait(blocking.waitMs, (c: Change) => c.kind === PROXY_DEFAULTS || services.has(`${c.namespace}/${c.name}`));
      result = compile();
    }
    return json(200, { Chain: result.chain }, { ...queryMeta(ctx.core.state.index, consistency), ...cacheHeaders(req) });
  } catch (e) {
    if (e instanceof CompileError) return text(500, e.message);
    throw e;
  }
}

/** `?cached` answers from the agent cache in the mesh system; the emulator always computes (a miss). */
function cacheHeaders(req: EmuRequest): Record<string, string> {
  return req.query.has('cached') ? { 'X-Cache': 'MISS', Age: '0' } : {};
}

class InvalidMode extends Error {}

/** Decodes a POST body as the mesh system does: case-insensitive and snake_case keys, weak types. */
export function decodeOverrides(body: Buffer): ChainOverrides {
  const textBody = body.toString('utf8');
  if (textBody.trim() === '') throw new BadRequest('EOF');
  let raw: unknown;
  try {
    raw = JSON.parse(textBody);
  } catch (e) {
    throw new BadRequest((e as Error).message);
  }
  if (raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new BadRequest(`json: cannot unmarshal ${Array.isArray(raw) ? 'array' : typeof raw} into Go value of type map[string]interface {}`);
  }
  const r = raw as Record<string, unknown>;
  const out: { -readonly [K in keyof ChainOverrides]: ChainOverrides[K] } = {};
  const protocol = rawField(r, 'OverrideProtocol');
  if (protocol !== undefined && protocol !== null) {
    if (typeof protocol === 'object') throw new BadRequest(`1 error(s) decoding:\n\n* 'OverrideProtocol' expected type 'string', got unconvertible type '${Array.isArray(protocol) ? '[]interface {}' : 'map[string]interface {}'}'`);
    if (protocol !== '') out.OverrideProtocol = String(protocol);
  }
  const timeout = rawField(r, 'OverrideConnectTimeout');
  if (timeout !== undefined && timeout !== null && timeout !== '') {
    if (typeof timeout === 'string') {
      try { out.OverrideConnectTimeout = parseGoDuration(timeout); } catch (e) {
        throw new BadRequest(`1 error(s) decoding:\n\n* error decoding 'OverrideConnectTimeout': ${(e as Error).message}`);
      }
    } else if (typeof timeout === 'number') {
      out.OverrideConnectTimeout = Math.trunc(timeout);
    } else {
      throw new BadRequest("1 error(s) decoding:\n\n* 'OverrideConnectTimeout' expected type 'time.Duration'");
    }
  }
  const mg = rawField(r, 'OverrideMeshGateway');
  if (mg !== undefined && mg !== null) {
    if (typeof mg !== 'object' || Array.isArray(mg)) {
      throw new BadRequest("1 error(s) decoding:\n\n* 'OverrideMeshGateway' expected a map, got '" + typeof mg + "'");
    }
    const mode = rawField(mg as Record<string, unknown>, 'Mode');
    if (mode !== undefined && mode !== null && mode !== '') {
      if (typeof mode !== 'string' || !MESH_GATEWAY_MODES.includes(mode)) throw new InvalidMode();
      out.OverrideMeshGateway = { Mode: mode };
    }
  }
  return out;
}
