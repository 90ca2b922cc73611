import { EmuRequest, EmuResponse } from '../../core/emulator-kit/types';
import { Caller } from './acl';
import { Watchers } from './blocking';
import { MeshState } from './state';
import { ChainShape, ConfigEntry, DEFAULT_NAMESPACE } from '../compiler';

/** What the route handlers share with the emulator. */
export interface MeshCore {
  readonly state: MeshState;
  /** The agent's datacenter. */
  readonly datacenter: string;
  /** Every known datacenter (the agent's first). */
  readonly datacenters: readonly string[];
  readonly trustDomain: string;
  readonly watchers: Watchers;
  /** The server it answers as: the spec's, or Consul 1.16 Community Edition's. */
  readonly shape: ChainShape;
  /** Every stored entry, with `Namespace` filled. */
  allEntries(): ConfigEntry[];
}

export interface RequestContext {
  readonly core: MeshCore;
  readonly caller: Caller;
  /** The request's token (for `acl/token/self`, which answers it back). */
  readonly secret?: string;
}

/** Errors of the mesh API are plain text, as the mesh system answers them. */
export function text(status: number, message: string, headers?: Record<string, string>): EmuResponse {
  return { status, body: `${message}\n`, contentType: 'text/plain; charset=utf-8', headers };
}

/** The namespace of a request: `ns`, then `X-Mesh-Namespace`, then the token's namespace, then `default`. */
export function selectNamespace(req: EmuRequest, caller: Caller): string {
  return req.query.get('ns') || req.headers['x-mesh-namespace'] || caller.namespace || DEFAULT_NAMESPACE;
}

/** `X-Mesh-*` query meta headers, named after the mesh system's `X-Consul-*` headers. */
export function queryMeta(index: number, consistency: string): Record<string, string> {
  return {
    'X-Mesh-Index': String(Math.max(1, index)),
    'X-Mesh-KnownLeader': 'true',
    'X-Mesh-LastContact': '0',
    'X-Mesh-Effective-Consistency': consistency,
  };
}

/** Consistency mode of a read: `stale`, `consistent` or the default `leader`; an error text when both are given. */
export function consistencyOf(req: EmuRequest): string | { error: string } {
  const stale = req.query.has('stale');
  const consistent = req.query.has('consistent');
  if (stale && consistent) return { error: 'Cannot specify ?stale with ?consistent, conflicting semantics.' };
  return stale ? 'stale' : consistent ? 'consistent' : 'leader';
}

/** The permission message, naming the token by its accessor id (never its secret). */
export function permissionDenied(caller: Caller, permission: string, resource: string): EmuResponse {
  const who = caller.accessorId === 'anonymous' ? 'anonymous token' : `token with AccessorID '${caller.accessorId}'`;
  return text(403, `Permission denied: ${who} lacks permission '${permission}' on "${resource}"`);
}
