/**
 * The mesh API emulator (`/v1`): the discovery-chain endpoint over the compiler and the
 * configuration-entry interface, with ACL tokens and namespaces. See README.md beside this file.
 */
import { Clock, SYSTEM_CLOCK } from '../../core/clock';
import { ChangeTracker } from '../../core/emulator-kit/change-tracker';
import { Router } from '../../core/emulator-kit/router';
import { ApiEmulator, BodyError, EmuRequest, EmuResponse } from '../../core/emulator-kit/types';
import { tokenOfRequest } from '../../core/http/api-profile';
import { MESH_API_PROFILE } from '../api-profile';
import { Caller, CreateTokenOptions, createToken, deleteToken, digest, resolveCaller } from './acl';
import { registerAclRoutes } from './acl-routes';
import { AdminContext, registerAdminRoutes } from './admin';
import { Watchers } from './blocking';
import { registerConfigEntryRoutes } from '../config-entry/config-entry.emulator';
import { MeshCore, RequestContext, text } from './context';
import { registerDiscoveryChainRoutes } from '../discovery-chain/discovery-chain.emulator';
import { emptyState, MeshState } from './state';
import { status } from './status';
import { ChainShape, ConfigEntry } from '../compiler';

/** The trust domain when none is given: a fixed cluster id and the default domain `consul`. */
export const DEFAULT_TRUST_DOMAIN = '9b0a3e2c-5d41-4f6e-8a7b-1c2d3e4f5a6b.consul';
export const DEFAULT_DATACENTER = 'dc1';

export interface MeshEmulatorOptions {
  /** The management token: may do anything, including the `/__admin/` interface. */
  readonly managementToken: string;
  /** The agent's datacenter. @default "dc1" */
  readonly datacenter?: string;
  /** The other known datacenters (reachable with `?dc=`). @default [] */
  readonly datacenters?: string[];
  /** The trust domain of SNI names. @default DEFAULT_TRUST_DOMAIN */
  readonly trustDomain?: string;
  /** The mesh version the agent reports (`GET /v1/agent/self`). @default "1.13.0" */
  readonly version?: string;
  /**
   * What blocking queries wait on: a query answers when its `wait` has passed on this clock (a test
   * passes a clock it moves). @default the system clock
   */
  readonly clock?: Clock;
  /**
   * Which server to answer as: the spec's (`X-Mesh-*` headers, chains as the spec shows them), or a
   * Consul 1.16 Community Edition server (`X-Consul-*` headers; `ns` and `Namespace` refused as
   * Enterprise features; entries with a `Hash`; chains named with a partition). @default "spec"
   */
  readonly shape?: ChainShape;
}

export class MeshEmulator implements ApiEmulator, MeshCore {
  public readonly name = 'mesh';
  public readonly datacenter: string;
  public readonly datacenters: readonly string[];
  public readonly trustDomain: string;
  public readonly watchers: Watchers;
  public readonly shape: ChainShape;
  private _state: MeshState = emptyState();
  private readonly router = new Router<RequestContext>();
  private readonly admin = new Router<AdminContext>();
  private readonly managementDigest: string;
  private tracker?: ChangeTracker;

  constructor(options: MeshEmulatorOptions) {
    if (!options.managementToken) throw new Error('the mesh emulator needs a management token');
    this.managementDigest = digest(options.managementToken);
    this.datacenter = options.datacenter || DEFAULT_DATACENTER;
    this.datacenters = [this.datacenter, ...(options.datacenters ?? []).filter((d) => d && d !== this.datacenter)];
    this.trustDomain = options.trustDomain || DEFAULT_TRUST_DOMAIN;
    this.watchers = new Watchers(options.clock ?? SYSTEM_CLOCK);
    if (options.shape !== undefined && options.shape !== 'spec' && options.shape !== 'consul-1.16') {
      throw new Error(`the mesh emulator's shape must be "spec" or "consul-1.16", got "${String(options.shape)}"`);
    }
    this.shape = options.shape ?? 'spec';
    registerDiscoveryChainRoutes(this.router);
    registerConfigEntryRoutes(this.router);
    registerAclRoutes(this.router, options.version || '1.13.0');
    registerAdminRoutes(this.admin);
  }

  public get state(): MeshState {
    return this._state;
  }

  /**
   * Creates an ACL token (for tests, the `/__admin/` interface and the secrets emulator's
   * mesh-token engine). Throws for an unknown policy name.
   */
  public createToken(options: CreateTokenOptions = {}): { secretId: string; accessorId: string } {
    return createToken(this._state.acl, options);
  }

  /** Revokes a token by accessor id; false when unknown. */
  public revokeToken(accessorId: string): boolean {
    return deleteToken(this._state.acl, accessorId);
  }

  public allEntries(): ConfigEntry[] {
    return Object.values(this._state.entries).map((s) => ({ ...s.entry, Namespace: s.namespace }) as ConfigEntry);
  }

  public async handle(req: EmuRequest): Promise<EmuResponse> {
    try {
      const served = status(req);
      if (served) return served;
      const caller = this.authenticate(req);
      if (req.path === '/__admin' || req.path.startsWith('/__admin/')) return this.handleAdmin(req, caller);
      if (caller === 'unknown') return text(403, 'ACL not found');
      // The Community Edition refuses the Enterprise namespace parameter, `default` included.
      if (this.shape === 'consul-1.16' && req.query.has('ns')) return text(400, 'Invalid query parameter: "ns" - Namespaces are a Consul Enterprise feature');
      const match = this.router.match(req);
      if (match === undefined) return text(404, `Invalid URL path: not a recognized HTTP API endpoint: ${req.path}`);
      if (match === 'method') return text(405, `method ${req.method} not allowed`);
      return this.asServer(await match.handler(req, match.params, { core: this, caller, secret: this.secretOf(req) }));
    } catch (e) {
      if (e instanceof BodyError) return text(400, `Request decoding failed: ${e.message}`);
      throw e;
    }
  }

  /** In the 1.16 shape, the query meta headers carry Consul's own names (`X-Consul-Index`, …). */
  private asServer(res: EmuResponse): EmuResponse {
    if (this.shape !== 'consul-1.16' || !res.headers) return res;
    const headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k.replace(/^X-Mesh-/i, 'X-Consul-'), v]));
    return { ...res, headers };
  }

  private secretOf(req: EmuRequest): string | undefined {
    return tokenOfRequest(MESH_API_PROFILE.tokenHeaders, req.headers) || undefined;
  }

  public mutates(req: EmuRequest): boolean {
    return req.method !== 'GET' && req.method !== 'HEAD'
      && (req.path.startsWith('/v1/config') || req.path.startsWith('/__admin') || req.path.startsWith('/v1/acl/')
        || req.path === '/v1/namespace' || req.path === '/v1/partition');
  }

  public snapshot(): unknown {
    return JSON.parse(JSON.stringify(this.tracker ? this.tracker.raw(this._state) : this._state));
  }

  public trackChanges(onChange: () => void): void {
    this.tracker = new ChangeTracker(onChange);
    this._state = this.tracker.track('mesh', this._state);
  }

  public takeChanges(): unknown[] {
    return this.tracker?.take().map((c) => ({ p: c.path, v: c.value, d: c.deleted })) ?? [];
  }

  public applyChanges(changes: unknown[]): void {
    const raw = (this.tracker ? this.tracker.raw(this._state) : this._state) as unknown as Record<string, unknown>;
    for (const c of changes as { p: string[]; v?: unknown; d?: boolean }[]) ChangeTracker.applyChange(raw, c.p, c.v, !!c.d);
  }

  /** The mesh answers errors as plain text. */
  public error(status: number, message: string): EmuResponse {
    return text(status, message);
  }

  public restore(data: unknown): void {
    const d = JSON.parse(JSON.stringify(data)) as Partial<MeshState>;
    const empty = emptyState();
    this._state = {
      index: d.index ?? empty.index,
      entries: d.entries ?? {},
      acl: { ...(d.acl ?? {}), tokens: d.acl?.tokens ?? [], policies: d.acl?.policies?.length ? d.acl.policies : empty.acl.policies },
    };
    if (this.tracker) this._state = this.tracker.track('mesh', this._state);
  }

  public close(): void {
    this.watchers.wakeAll();
  }

  /** The token from `X-Mesh-Token`, else `X-Consul-Token` (the real server's header), else `Authorization: Bearer`. */
  private authenticate(req: EmuRequest): Caller | 'unknown' {
    return resolveCaller(this.secretOf(req), this.managementDigest, this._state.acl);
  }

  private handleAdmin(req: EmuRequest, caller: Caller | 'unknown'): EmuResponse | Promise<EmuResponse> {
    if (caller === 'unknown' || !caller.management) return text(403, 'Permission denied: the admin interface needs the management token');
    const match = this.admin.match(req);
    if (match === undefined) return text(404, `no admin endpoint ${req.path}`);
    if (match === 'method') return text(405, `method ${req.method} not allowed`);
    return match.handler(req, match.params, { acl: this._state.acl });
  }
}
