import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import { Emulator } from '../../lib/bundled-emulator/bundled-emulator';

/**
 * Every endpoint of the three emulated APIs, for the fuzz and access tests: platform and mesh from
 * their routers' tables (read through private fields: nothing new is exposed), secrets from the
 * spec's endpoint list (its engines route by mount, without a table).
 */
export type ApiName = 'platform' | 'secrets' | 'mesh';

export interface Endpoint {
  readonly api: ApiName;
  readonly method: string;
  /** Path with `{}` for each path parameter (`{*}` for one that may hold slashes). */
  readonly template: string;
}

interface RouteLike { method: string; regex: RegExp }

/** `^\/api\/v2\/organizations\/([^/]+)/?$` -> `/api/v2/organizations/{}` */
function templateOf(regex: RegExp): string {
  return regex.source.replace(/^\^/, '').replace(/\\?\/\?\$$/, '')
    .replace(/\(\[\^\\?\/\]\+\)/g, '{}').replace(/\(\.\+\)/g, '{*}').replace(/\\(.)/g, '$1');
}

function fromRouter(api: ApiName, router: unknown): Endpoint[] {
  const routes = (router as { routes: RouteLike[] }).routes;
  return routes.map((r) => ({ api, method: r.method, template: templateOf(r.regex) }));
}

const MOUNTS: Record<string, string> = { kv_mount: 'secret', directory_mount: 'directory', platform_mount: 'platform', mesh_mount: 'mesh' };

function secretsEndpoints(): Endpoint[] {
  const text = fs.readFileSync(path.join(__dirname, 'fixtures', 'secrets-endpoints.md'), 'utf8');
  const out: Endpoint[] = [];
  for (const m of text.matchAll(/^(GET|POST|PUT|DELETE|LIST|PATCH) `([^`]+)`$/gm)) {
    const p = m[2].split('?')[0]
      .replace(/\{(\w+)\}/g, (_s, k: string) => `/${MOUNTS[k]}`)
      .replace(/<path>/g, '{*}').replace(/<[^>]+>/g, '{}');
    out.push({ api: 'secrets', method: m[1], template: `/v1${p.startsWith('/') ? '' : '/'}${p}` });
  }
  return out;
}

/** The API endpoints (not the emulators' admin interfaces). */
export function allEndpoints(emulator: Emulator): Endpoint[] {
  const apis = emulator.apis as unknown as Record<ApiName, { router: unknown }>;
  return [...fromRouter('platform', apis.platform.router), ...secretsEndpoints(), ...fromRouter('mesh', apis.mesh.router)];
}

/** Fills a template's parameters. */
export function fill(template: string, params: string[]): string {
  let i = 0;
  return template.replace(/\{\*?\}/g, () => params[i++ % params.length]);
}

export function paramCount(template: string): number {
  return (template.match(/\{\*?\}/g) ?? []).length;
}

/** The administrator credentials of an API as request headers. */
export function authHeaders(emulator: Emulator, api: ApiName, token?: string): Record<string, string> {
  const e = emulator.env;
  if (api === 'platform') return { authorization: `Bearer ${token ?? e.PLATFORM_TOKEN}` };
  if (api === 'secrets') return { 'x-secrets-token': token ?? e.SECRETS_TOKEN };
  return { 'x-mesh-token': token ?? e.MESH_HTTP_TOKEN };
}

export function baseUrl(emulator: Emulator, api: ApiName): string {
  const e = emulator.env;
  return api === 'platform' ? e.PLATFORM_ADDRESS : api === 'secrets' ? e.SECRETS_ADDR : e.MESH_HTTP_ADDR;
}

/** Sends a raw request (the path is sent verbatim, so bad percent-encoding and `..` reach the server). */
export function send(emulator: Emulator, api: ApiName, method: string, rawPath: string, body?: string | Buffer,
  headers: Record<string, string> = authHeaders(emulator, api)): Promise<{ status: number; text: string }> {
  const url = new URL(baseUrl(emulator, api));
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: url.hostname, port: url.port, method, path: rawPath,
      headers: { 'content-type': 'application/json', ...(body !== undefined ? { 'content-length': Buffer.byteLength(body) } : {}), ...headers },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Paths where the spec itself answers 500 (with a message, never a crash). */
export function specAllows500(api: ApiName, p: string): boolean {
  if (api === 'platform') return p.includes('/no-code-modules');
  // Consul 1.16 answers 500 for an invalid ACL policy, role or token and for an id that is no UUID (test/mesh/acl/acl-*.e2e.test.ts).
  if (api === 'mesh' && p.startsWith('/v1/acl/')) return true;
  if (api === 'mesh') return p.startsWith('/v1/config') || p.startsWith('/v1/discovery-chain');
  return p.startsWith('/v1/database/');
}

/** Whether an answer is acceptable under malformed input: never a crash, never an unlisted 5xx. */
export function acceptable(api: ApiName, p: string, r: { status: number; text: string }): boolean {
  if (r.status < 500) return true;
  if (r.text.includes('internal error:')) return false;
  return r.status === 500 && specAllows500(api, p);
}
