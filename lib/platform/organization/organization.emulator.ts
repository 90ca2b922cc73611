import { EmuRequest, EmuResponse } from '../../core/emulator-kit/types';
import { Router } from '../../core/emulator-kit/router';
import { canAccess, canDo, canManage, Permission, PlatformContext, visibleOrganization } from '../emulator/context';
import { ApiFailure, BASE, doc, notFound, pageRequest, paginate, readData, unprocessable } from '../emulator/jsonapi';
import { newId, OrganizationRecord, purgeOrganization } from '../emulator/state';

/** Request attributes of create/update with their defaults (spec: body of create and update). */
export const ORGANIZATION_DEFAULTS: Record<string, unknown> = {
  'session-timeout': 20160,
  'session-remember': 20160,
  'collaborator-auth-policy': 'password',
  'cost-estimation-enabled': false,
  'send-passing-statuses-for-untriggered-speculative-plans': false,
  'aggregated-commit-status-enabled': true,
  'owners-team-saml-role-id': null,
  'assessments-enforced': false,
  'allow-force-delete-workspaces': false,
  'default-execution-mode': 'remote',
  'default-agent-pool-id': null,
};

export const PERMISSION_KEYS = [
  'can-update', 'can-destroy', 'can-access-via-teams', 'can-create-module', 'can-create-team', 'can-create-workspace',
  'can-manage-users', 'can-manage-subscription', 'can-manage-sso', 'can-update-oauth', 'can-update-policyengine',
  'can-update-ssh-keys', 'can-update-api-token', 'can-traverse', 'can-start-trial', 'can-update-agent-pools',
  'can-manage-tags', 'can-manage-varsets', 'can-read-varsets', 'can-manage-public-providers', 'can-create-provider',
  'can-manage-public-modules', 'can-manage-custom-providers', 'can-manage-run-tasks', 'can-read-run-tasks',
  'can-create-project',
] as const;

export const ENTITLEMENT_BOOLEANS = [
  'agents', 'audit-logging', 'configuration-designer', 'cost-estimation', 'global-run-tasks', 'module-tests-generation',
  'operations', 'policy-enforcement', 'private-module-registry', 'private-policy-agents', 'private-vcs', 'run-tasks',
  'self-serve-billing', 'policyengine', 'sso', 'state-storage', 'teams', 'usage-reporting', 'vcs-integrations',
] as const;

export const ENTITLEMENT_LIMITS = [
  'policy-limit', 'policy-mandatory-enforcement-limit', 'policy-set-limit', 'run-task-limit',
  'run-task-mandatory-enforcement-limit', 'run-task-workspace-limit', 'user-limit', 'versioned-policy-set-limit',
] as const;

const NAME_RE = /^[A-Za-z0-9_-]+$/;
const EMAIL_RE = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const AUTH_POLICIES = ['password', 'two_factor_mandatory'];
const EXECUTION_MODES = ['remote', 'local', 'agent'];

/** Entitlements of a new organization: every feature on, no limits (an administrator may change them). */
export function defaultEntitlements(): Record<string, boolean | number | null> {
  const e: Record<string, boolean | number | null> = {};
  for (const k of ENTITLEMENT_BOOLEANS) e[k] = true;
  for (const k of ENTITLEMENT_LIMITS) e[k] = null;
  return e;
}

export function registerOrganizationRoutes(router: Router<PlatformContext>): void {
  router.add('GET', `${BASE}/organizations`, list);
  router.add('POST', `${BASE}/organizations`, create);
  router.add('GET', `${BASE}/organizations/:org`, (_req, p, ctx) => show(p.org, ctx));
  router.add('PATCH', `${BASE}/organizations/:org`, (req, p, ctx) => update(req, p.org, ctx));
  router.add('DELETE', `${BASE}/organizations/:org`, (_req, p, ctx) => destroy(p.org, ctx));
  router.add('GET', `${BASE}/organizations/:org/entitlement-set`, (_req, p, ctx) => {
    const org = visibleOrganization(ctx, p.org);
    return org ? doc(200, { data: entitlementSetResource(org) }) : notFound();
  });
}

function list(req: EmuRequest, _p: unknown, ctx: PlatformContext): EmuResponse {
  const q = req.query.get('q');
  const qEmail = req.query.get('q[email]');
  const qName = req.query.get('q[name]');
  const has = (v: unknown, needle: string): boolean => String(v ?? '').toLowerCase().includes(needle.toLowerCase());
  const orgs = Object.values(ctx.state.organizations)
    .filter((o) => canAccess(ctx, o))
    .filter((o) => {
      // `q` searches name and email and takes precedence over the specific filters.
      if (q !== null) return has(o.name, q) || has(o.attributes.email, q);
      return (qEmail === null || has(o.attributes.email, qEmail)) && (qName === null || has(o.name, qName));
    })
    .sort((a, b) => a.name.localeCompare(b.name));
  const page = pageRequest(req.query, true);
  if (!page) return doc(200, { data: orgs.map((o) => organizationResource(o, ctx)) });
  const p = paginate(orgs, page, req, { pageSizeInMeta: true });
  return doc(200, { data: p.items.map((o) => organizationResource(o, ctx)), links: p.links, meta: { pagination: p.pagination } });
}

function show(name: string, ctx: PlatformContext): EmuResponse {
  const org = visibleOrganization(ctx, name);
  return org ? doc(200, { data: organizationResource(org, ctx) }) : notFound();
}

function create(req: EmuRequest, _p: unknown, ctx: PlatformContext): EmuResponse {
  // Only a user token of a user allowed to create organizations; others see 404 (not found or unauthorized).
  if (ctx.caller.token.kind !== 'user' || !ctx.caller.user.admin) return notFound();
  const { attributes } = readData(req, 'organizations');
  const problems: string[] = [];
  if (attributes.name === undefined || attributes.name === null || attributes.name === '') problems.push('Name can\'t be blank');
  if (attributes.email === undefined || attributes.email === null || attributes.email === '') problems.push('Email can\'t be blank');
  if (problems.length) return unprocessable(...problems);
  const merged = validate(ctx, { ...ORGANIZATION_DEFAULTS }, attributes, undefined);
  const name = merged.name as string;
  delete merged.name;
  const externalId = newId(ctx.state, 'org');
  const org: OrganizationRecord = {
    externalId, name, createdAt: new Date().toISOString(), attributes: merged,
    owners: [ctx.caller.user.id], entitlements: defaultEntitlements(),
  };
  ctx.state.organizations[externalId] = org;
  return doc(201, { data: organizationResource(org, ctx), included: [entitlementSetResource(org)] });
}

function update(req: EmuRequest, name: string, ctx: PlatformContext): EmuResponse {
  const org = visibleOrganization(ctx, name);
  if (!org || !canManage(ctx, org)) return notFound();
  const { attributes } = readData(req, 'organizations');
  const merged = validate(ctx, { ...org.attributes, name: org.name }, attributes, org);
  org.name = merged.name as string;
  delete merged.name;
  org.attributes = merged;
  return doc(200, { data: organizationResource(org, ctx) });
}

function destroy(name: string, ctx: PlatformContext): EmuResponse {
  const org = visibleOrganization(ctx, name);
  if (!org || !canManage(ctx, org)) return notFound();
  delete ctx.state.organizations[org.externalId];
  purgeOrganization(ctx.state, org.externalId);
  return { status: 204 };
}

/**
 * Checks the given attributes against the types and rules of the spec and returns the merged
 * attributes (with `name`); throws a 422 listing every problem.
 */
function validate(ctx: PlatformContext, current: Record<string, unknown>, given: Record<string, unknown>,
  org: OrganizationRecord | undefined): Record<string, unknown> {
  const problems: string[] = [];
  const out = { ...current };
  const type = (key: string, ok: (v: unknown) => boolean, what: string, nullable = false): void => {
    if (!(key in given)) return;
    const v = given[key];
    if ((v === null && nullable) || ok(v)) out[key] = v;
    else problems.push(`${key} must be ${what}`);
  };
  const isString = (v: unknown): boolean => typeof v === 'string';
  const isBool = (v: unknown): boolean => typeof v === 'boolean';
  const isInt = (v: unknown): boolean => Number.isInteger(v) && (v as number) > 0;
  type('name', isString, 'a string');
  type('email', isString, 'a string');
  type('session-timeout', isInt, 'a positive integer', true);
  type('session-remember', isInt, 'a positive integer', true);
  type('collaborator-auth-policy', (v) => AUTH_POLICIES.includes(v as string), 'one of "password", "two_factor_mandatory"');
  type('cost-estimation-enabled', isBool, 'a boolean');
  type('send-passing-statuses-for-untriggered-speculative-plans', isBool, 'a boolean');
  type('aggregated-commit-status-enabled', isBool, 'a boolean');
  type('owners-team-saml-role-id', isString, 'a string', true);
  type('assessments-enforced', isBool, 'a boolean');
  type('allow-force-delete-workspaces', isBool, 'a boolean');
  type('default-execution-mode', (v) => EXECUTION_MODES.includes(v as string), 'one of "remote", "local", "agent"');
  type('default-agent-pool-id', isString, 'a string', true);
  if (problems.length) throw new ApiFailure(unprocessable(...problems));

  if (typeof out.name !== 'string' || !NAME_RE.test(out.name)) {
    problems.push('Name can only contain letters, numbers, \'-\', and \'_\'');
  } else if (Object.values(ctx.state.organizations).some((o) => o.name === out.name && o !== org)) {
    problems.push('Name has already been taken');
  }
  if (typeof out.email !== 'string' || !EMAIL_RE.test(out.email)) problems.push('Email is invalid');
  // The self-hosted edition always keeps this false and does not let it change.
  if (ctx.edition === 'self-hosted') out['send-passing-statuses-for-untriggered-speculative-plans'] = false;
  if (out['aggregated-commit-status-enabled'] === true && out['send-passing-statuses-for-untriggered-speculative-plans'] === true) {
    problems.push('aggregated-commit-status-enabled cannot be true while send-passing-statuses-for-untriggered-speculative-plans is true');
  }
  const mode = out['default-execution-mode'];
  const poolGiven = given['default-agent-pool-id'] !== undefined && given['default-agent-pool-id'] !== null;
  if (mode === 'agent') {
    const poolId = out['default-agent-pool-id'];
    if (typeof poolId !== 'string' || !poolId) {
      problems.push('default-agent-pool-id is required when default-execution-mode is "agent"');
    } else {
      const pool = ctx.state.agentPools[poolId];
      if (!pool || !org || pool.organizationId !== org.externalId) {
        problems.push(`default-agent-pool-id "${poolId}" is not an agent pool of this organization`);
      }
    }
  } else {
    if (poolGiven) problems.push(`default-agent-pool-id must not be given when default-execution-mode is "${String(mode)}"`);
    out['default-agent-pool-id'] = null;
  }
  if (problems.length) throw new ApiFailure(unprocessable(...problems));
  return out;
}

/** The organization resource object, every attribute of the spec's table. */
export function organizationResource(org: OrganizationRecord, ctx: PlatformContext): Record<string, unknown> {
  const a = org.attributes;
  const hosted = ctx.edition === 'hosted';
  const manage = canManage(ctx, org);
  const permissions: Record<string, boolean> = {};
  // What a team token's permissions let it do shows as the platform reports it: the keys converge's preflight reads.
  const granted: Record<string, Permission> = {
    'can-update-oauth': 'manage-vcs', 'can-update-agent-pools': 'manage-agent-pools', 'can-create-module': 'manage-modules', 'can-create-workspace': 'create-workspaces',
    'can-create-project': 'create-workspaces',
  };
  for (const k of PERMISSION_KEYS) {
    permissions[k] = k === 'can-start-trial' ? false : granted[k] ? canDo(ctx, org, granted[k])
      : k === 'can-update' || k === 'can-destroy' || k === 'can-create-team' || k.startsWith('can-manage') || k.startsWith('can-update') ? manage : true;
  }
  const attributes: Record<string, unknown> = {
    'external-id': org.externalId,
    'created-at': org.createdAt,
    email: a.email,
    'session-timeout': a['session-timeout'],
    'session-remember': a['session-remember'],
    'collaborator-auth-policy': a['collaborator-auth-policy'],
    'plan-expired': false,
    'plan-expires-at': null,
    'plan-is-trial': false,
    'plan-is-enterprise': !hosted,
    'plan-identifier': hosted ? 'free' : 'enterprise',
    'cost-estimation-enabled': a['cost-estimation-enabled'],
    'send-passing-statuses-for-untriggered-speculative-plans': a['send-passing-statuses-for-untriggered-speculative-plans'],
    'aggregated-commit-status-enabled': a['aggregated-commit-status-enabled'],
    'allow-force-delete-workspaces': a['allow-force-delete-workspaces'],
    name: org.name,
    permissions,
    'fair-run-queuing-enabled': true,
    'saml-enabled': false,
    'owners-team-saml-role-id': a['owners-team-saml-role-id'],
    ...(hosted ? { 'two-factor-conformant': true, 'assessments-enforced': a['assessments-enforced'] } : {}),
    'default-execution-mode': a['default-execution-mode'],
  };
  const self = `${BASE}/organizations/${encodeURIComponent(org.name)}`;
  const pool = a['default-agent-pool-id'];
  return {
    id: org.name,
    type: 'organizations',
    attributes,
    relationships: {
      'default-agent-pool': { data: typeof pool === 'string' ? { id: pool, type: 'agent-pools' } : null },
      'oauth-tokens': { links: { related: `${self}/oauth-tokens` } },
      'authentication-token': { links: { related: `${self}/authentication-token` } },
      'entitlement-set': {
        data: { id: org.externalId, type: 'entitlement-sets' },
        links: { related: `${self}/entitlement-set` },
      },
      subscription: { links: { related: `${self}/subscription` } },
    },
    links: { self },
  };
}

/** The entitlement-set resource object; its id is the organization external id. */
export function entitlementSetResource(org: OrganizationRecord): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const k of ENTITLEMENT_BOOLEANS) attributes[k] = org.entitlements[k] ?? false;
  for (const k of ENTITLEMENT_LIMITS) attributes[k] = org.entitlements[k] ?? null;
  return { id: org.externalId, type: 'entitlement-sets', attributes, links: { self: `${BASE}/entitlement-sets/${org.externalId}` } };
}
