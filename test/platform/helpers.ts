import { request } from 'undici';
import { Clock } from '../../lib/core/clock';
import { HttpClient } from '../../lib/core/http/http-client';
import { ServedApi } from '../../lib/core/emulator-kit/server';
import { PlatformEmulator, PlatformEmulatorOptions } from '../../lib/platform/emulator/platform-emulator';

export const ADMIN_TOKEN = 'admin-token-for-tests';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** A served platform emulator and a raw HTTP caller (bodies as JSON:API documents). */
export class PlatformFixture {
  public static async start(options: Partial<PlatformEmulatorOptions> = {}): Promise<PlatformFixture> {
    const emulator = new PlatformEmulator({ adminToken: ADMIN_TOKEN, rateLimit: 0, ...options });
    const served = await ServedApi.start(emulator, { port: 0 });
    return new PlatformFixture(emulator, served);
  }

  private constructor(public readonly emulator: PlatformEmulator, public readonly served: ServedApi) {}

  public get address(): string {
    return this.served.address;
  }

  public stop(): Promise<void> {
    return this.served.stop();
  }

  /** Calls `path` (with `/api/v2` or `/__admin` given by the caller) with a token (default: admin; null: none). */
  public async call(method: string, path: string, body?: unknown, token: string | null = ADMIN_TOKEN): Promise<Answer> {
    const headers: Record<string, string> = { 'content-type': 'application/vnd.api+json' };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    const res = await request(`${this.address}${path}`, {
      method: method as any, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    let parsed: any = text.length ? text : undefined;
    try { parsed = text.length ? JSON.parse(text) : undefined; } catch { /* text */ }
    return { status: res.statusCode, headers: res.headers, body: parsed };
  }

  public api(method: string, path: string, body?: unknown, token: string | null = ADMIN_TOKEN): Promise<Answer> {
    return this.call(method, `/api/v2${path}`, body, token);
  }

  /** Creates an organization as the admin; fails the test unless 201. */
  public async createOrg(name: string, attributes: Record<string, unknown> = {}): Promise<any> {
    const res = await this.api('POST', '/organizations', orgDoc({ name, email: `${name}@example.com`, ...attributes }));
    if (res.status !== 201) throw new Error(`create ${name}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** Seeds a user and a token of a kind; answers the token string. */
  public async seedToken(username: string, kind: 'user' | 'team' | 'organization' = 'user', organization?: string, admin = false): Promise<string> {
    const users = await this.call('POST', '/__admin/users', { username, email: `${username}@example.com`, admin });
    if (users.status !== 201 && users.status !== 422) throw new Error(JSON.stringify(users.body));
    const t = await this.call('POST', '/__admin/tokens', { user: username, kind, organization });
    if (t.status !== 201) throw new Error(JSON.stringify(t.body));
    return t.body.token;
  }
}

/** Seeds through the admin interface; fails the test unless 2xx. Answers the JSON body. */
export async function admin(fx: PlatformFixture, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fx.call(method, `/__admin${path}`, body);
  if (res.status >= 300) throw new Error(`admin ${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** An organization with a project, a workspace and a no-code-ready registry module (versions 1.0.0 and 1.1.0). */
export async function seedOrg(fx: PlatformFixture, name: string): Promise<{ project: any; workspace: any; module: any }> {
  await fx.createOrg(name);
  const project = await admin(fx, 'POST', `/organizations/${name}/projects`, { name: 'apps' });
  const workspace = await admin(fx, 'POST', `/organizations/${name}/workspaces`, { name: 'web', project: project.id });
  const module = await admin(fx, 'POST', `/organizations/${name}/registry-modules`, { name: 'bucket', provider: 'aws', versions: ['1.0.0', '1.1.0'] });
  return { project, workspace, module };
}

export function oauthClientDoc(attributes: Record<string, unknown> = {}, projects?: string[]): unknown {
  return {
    data: {
      type: 'oauth-clients',
      attributes: {
        'service-provider': 'provider_a', key: 'client-key', 'http-url': 'https://vcs.example.com', 'api-url': 'https://api.vcs.example.com',
        'oauth-token-string': 'vcs-token-secret', ...attributes,
      },
      ...(projects ? { relationships: { projects: { data: projects.map((id) => ({ id, type: 'projects' })) } } } : {}),
    },
  };
}

export function noCodeDoc(moduleId: string, attributes: Record<string, unknown> = {}, options?: unknown[]): unknown {
  return {
    data: {
      type: 'no-code-modules',
      attributes,
      relationships: {
        'registry-module': { data: { id: moduleId, type: 'registry-module' } },
        ...(options ? { 'variable-options': { data: options } } : {}),
      },
    },
  };
}

export function workspaceDoc(name: string, projectId: string, vars: Record<string, unknown>[] = []): unknown {
  return {
    data: {
      type: 'workspaces',
      attributes: { name },
      relationships: {
        project: { data: { id: projectId, type: 'project' } },
        vars: { data: vars.map((attributes) => ({ type: 'vars', attributes: { category: 'engine', ...attributes } })) },
      },
    },
  };
}

export function orgDoc(attributes: Record<string, unknown>): unknown {
  return { data: { type: 'organizations', attributes } };
}

/**
 * A handler context over a served platform emulator, with a token (default: the admin token) and
 * the HTTP client's clock (default: the system clock; pass the emulator's to share one).
 */
export function handlerContext(fx: PlatformFixture, token: string = ADMIN_TOKEN, address = 'test/construct', clock?: Clock): { address: string; http: HttpClient } {
  return { address, http: new HttpClient({ api: 'platform', baseUrl: fx.address, authHeaders: { authorization: `Bearer ${token}` }, rateLimit: 0, clock }) };
}
