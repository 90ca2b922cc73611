import { randomBytes } from 'crypto';
import { EmuResponse } from '../../../core/emulator-kit/types';
import { envelope, errors, keyList, noContent, notFound, objectBody, RequestError } from '../responses';
import { Acl } from './acl';
import { Capability, parsePolicy, PolicyParseError } from './policy-parser';

/** The real service's built-in `default` policy (the part the emulator serves): a token may look itself up, renew and revoke itself. */
export const DEFAULT_POLICY = `# Allow tokens to look up their own properties
path "auth/token/lookup-self" {
    capabilities = ["read"]
}

# Allow tokens to renew themselves
path "auth/token/renew-self" {
    capabilities = ["update"]
}

# Allow tokens to revoke themselves
path "auth/token/revoke-self" {
    capabilities = ["update"]
}

# Allow a token to look up its own capabilities on a path
path "sys/capabilities-self" {
    capabilities = ["update"]
}
`;

/** A token the emulator issued (`auth/token/create`); the root token and admin-added callers are not kept here. */
interface IssuedToken {
  readonly accessor: string;
  readonly policies: string[];
  readonly ttl: number;
  readonly displayName: string;
  readonly created: number;
}

/** Who is calling: the root token (everything), or a token holding policies. */
export type Caller = { readonly root: true; readonly token: string; readonly displayName?: string }
  | { readonly root: false; readonly token: string; readonly policies: readonly string[]; readonly displayName?: string };

/** A token's display name as the real service keeps it: `token`, or `token-` and the given name, other characters than letters, digits and `-` as `-`. */
export function tokenDisplayName(given: unknown): string {
  if (typeof given !== 'string' || given === '') return 'token';
  return `token-${given.replace(/[^A-Za-z0-9-]/g, '-')}`;
}

interface AccessSnapshot {
  policies: Record<string, string>;
  tokens: Record<string, IssuedToken>;
}

const POLICY_PATH = 'sys/policies/acl';
/** The service's default token TTL (768 hours), for a token whose role or request gives none. */
export const DEFAULT_TOKEN_TTL_S = 768 * 3600;
const TOKEN_PATH = 'auth/token';

/**
 * ACL policies (`sys/policies/acl/<name>`) and tokens (`auth/token/create`, `lookup-self`,
 * `revoke-self`, `revoke`) of the secrets service, and the check of every request against them.
 * The root token holds every capability; `root` and `default` are built in.
 */
export class AccessControl {
  private policies = new Map<string, string>([['default', DEFAULT_POLICY]]);
  private tokens = new Map<string, IssuedToken>();
  private readonly aclCache = new Map<string, Acl>();

  /** The caller a token stands for, or undefined for an unknown token. */
  public caller(token: string): Caller | undefined {
    const t = this.tokens.get(token);
    if (!t) return undefined;
    return t.policies.includes('root') ? { root: true, token, displayName: t.displayName } : { root: false, token, policies: t.policies, displayName: t.displayName };
  }

  /** Whether a path is one this module serves (below `/v1`, no leading slash). */
  public serves(path: string): boolean {
    return path === POLICY_PATH || path.startsWith(`${POLICY_PATH}/`) || path.startsWith(`${TOKEN_PATH}/`);
  }

  /** The capabilities a caller holds on a path. */
  public capabilities(caller: Caller, path: string, listing: boolean): Set<Capability> {
    if (caller.root) return new Set(['create', 'read', 'update', 'patch', 'delete', 'list', 'sudo']);
    return this.acl(caller.policies).capabilities(path, listing);
  }

  /** Answers `sys/policies/acl[/<name>]` and `auth/token/*` (the ACL check has passed). */
  public handle(caller: Caller, method: string, path: string, body: unknown): EmuResponse {
    if (path === POLICY_PATH || path === `${POLICY_PATH}/`) {
      if (method !== 'LIST') return errors(405, 'unsupported operation');
      return keyList([...this.policies.keys(), 'root'].sort());
    }
    if (path.startsWith(`${POLICY_PATH}/`)) return this.policy(method, path.slice(POLICY_PATH.length + 1).replace(/\/$/, ''), body);
    const op = path.slice(TOKEN_PATH.length + 1).replace(/\/$/, '');
    if (op === 'create' && method === 'POST') return this.create(caller, body);
    if (op === 'lookup-self' && method === 'GET') return this.lookupSelf(caller);
    if (op === 'revoke-self' && method === 'POST') { this.tokens.delete(caller.token); return noContent(); }
    if (op === 'revoke' && method === 'POST') {
      const token = objectBody(body).token;
      if (typeof token !== 'string' || !token) return errors(400, 'missing token');
      this.tokens.delete(token);
      return noContent();
    }
    if (['create', 'lookup-self', 'revoke-self', 'revoke'].includes(op)) return errors(405, 'unsupported operation');
    return errors(404, `no handler for route "${path}". route entry not found.`);
  }

  public snapshot(): AccessSnapshot {
    return { policies: Object.fromEntries(this.policies), tokens: Object.fromEntries(this.tokens) };
  }

  public restore(data: unknown): void {
    const s = data as AccessSnapshot | undefined;
    this.policies = new Map(Object.entries(s?.policies ?? { default: DEFAULT_POLICY }));
    this.tokens = new Map(Object.entries(s?.tokens ?? {}));
    this.aclCache.clear();
  }

  private acl(names: readonly string[]): Acl {
    const key = [...names].sort().join('\n');
    let acl = this.aclCache.get(key);
    if (!acl) {
      // A policy deleted since the token was made grants nothing, as on the real service.
      acl = new Acl(names.flatMap((n) => (this.policies.has(n) ? parsePolicy(this.policies.get(n)!) : [])));
      this.aclCache.set(key, acl);
    }
    return acl;
  }

  private policy(method: string, rawName: string, body: unknown): EmuResponse {
    const name = rawName.toLowerCase();
    if (!name) return errors(400, 'policy name must be provided');
    switch (method) {
      case 'GET': {
        if (name === 'root') return envelope({ name, policy: '' });
        const policy = this.policies.get(name);
        return policy === undefined ? notFound() : envelope({ name, policy });
      }
      case 'POST': {
        if (name === 'root') return errors(400, 'cannot update "root" policy');
        const text = objectBody(body).policy;
        if (typeof text !== 'string' || !text.trim()) return errors(400, "'policy' parameter not supplied or empty");
        try {
          parsePolicy(text);
        } catch (e) {
          if (e instanceof PolicyParseError) return errors(400, e.message);
          throw e;
        }
        this.policies.set(name, text);
        this.aclCache.clear();
        return noContent();
      }
      case 'DELETE':
        if (name === 'root' || name === 'default') return errors(400, `cannot delete "${name}" policy`);
        this.policies.delete(name);
        this.aclCache.clear();
        return noContent();
      default:
        return errors(405, 'unsupported operation');
    }
  }

  private create(caller: Caller, body: unknown): EmuResponse {
    const b = objectBody(body);
    const asked = b.policies === undefined ? undefined : stringList('policies', b.policies);
    const parentPolicies = caller.root ? ['root'] : caller.policies;
    let policies = (asked ?? parentPolicies.filter((p) => p !== 'default')).map((p) => p.toLowerCase());
    const mayChoose = caller.root || this.capabilities(caller, `${TOKEN_PATH}/create`, false).has('sudo');
    if (!mayChoose && policies.some((p) => p !== 'default' && !parentPolicies.includes(p))) {
      return errors(400, 'child policies must be subset of parent');
    }
    if (policies.includes('root') && !caller.root) return errors(400, 'root tokens may not be created by a non-root token');
    if (b.no_default_policy !== true && !policies.includes('root') && !policies.includes('default')) policies = [...policies, 'default'];
    const auth = this.issue({ policies, ttl: policies.includes('root') ? 0 : DEFAULT_TOKEN_TTL_S, displayName: tokenDisplayName(b.display_name), orphan: false });
    const res = envelope(null);
    return { ...res, body: { ...(res.body as object), auth } };
  }

  /**
   * Issues a token holding `policies` (sorted, without duplicates) and answers its `auth` block as the
   * real service does: by `auth/token/create`, or by an auth method's login (AppRole).
   */
  public issue(t: { policies: readonly string[]; ttl: number; displayName: string; orphan: boolean; metadata?: Record<string, string>; numUses?: number }): Record<string, unknown> {
    const policies = [...new Set(t.policies)].sort();
    const token = `hvs.${randomBytes(18).toString('base64url')}`;
    const accessor = randomBytes(12).toString('base64url');
    this.tokens.set(token, { accessor, policies, ttl: t.ttl, displayName: t.displayName, created: Date.now() });
    return {
      client_token: token, accessor, policies, token_policies: policies, metadata: t.metadata ?? null,
      lease_duration: t.ttl, renewable: t.ttl > 0, entity_id: '', token_type: 'service', orphan: t.orphan,
      ...(t.numUses !== undefined ? { mfa_requirement: null, num_uses: t.numUses } : {}),
    };
  }

  private lookupSelf(caller: Caller): EmuResponse {
    if (caller.root) {
      return envelope({ id: caller.token, accessor: '', policies: ['root'], ttl: 0, display_name: 'root', orphan: true, type: 'service' });
    }
    const t = this.tokens.get(caller.token)!;
    return envelope({
      id: caller.token, accessor: t.accessor, policies: t.policies, ttl: t.ttl, display_name: t.displayName,
      creation_time: Math.floor(t.created / 1000), orphan: false, type: 'service',
    });
  }
}

function stringList(field: string, v: unknown): string[] {
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
  if (Array.isArray(v) && v.every((s) => typeof s === 'string')) return v as string[];
  throw new RequestError(400, `${field} must be a list of strings`);
}
