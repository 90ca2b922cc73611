import fc from 'fast-check';
import { ConvergeElement } from '../../lib/core/constructs/resource';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import { registeredKinds } from '../../lib/core/engine/registry';
import * as mesh from '../../lib/mesh';
import * as platform from '../../lib/platform';
import * as secrets from '../../lib/secrets';
import { registerAllKinds } from '../../lib/kinds';

registerAllKinds();

/**
 * Valid and invalid props of every construct kind, for the property-based tests. A generic driver
 * cannot know what a construct accepts: every registered kind needs an entry here (the test fails
 * for a kind without one).
 */
export interface KindProps {
  /** The smallest valid props: the required fields. Removing any of them must fail. */
  readonly base: Record<string, unknown>;
  /** Valid values of optional fields (random subsets are added to `base`). */
  readonly optional?: Record<string, unknown>;
  /** Valid values generated for fields (overriding `base`/`optional`). */
  readonly valid?: Record<string, fc.Arbitrary<unknown>>;
  /** Invalid values of fields, beyond the generic ones (wrong types, empty required strings). */
  readonly invalid?: Record<string, fc.Arbitrary<unknown>>;
  /**
   * Known gaps: `field` or `field:rule` the construct does not refuse yet. Their properties run as
   * `test.failing`, so a fix makes the test fail until the gap is removed here.
   */
  readonly gaps?: string[];
  /**
   * Further valid props that set sensitive inputs `base`/`optional` cannot set together (mutually
   * exclusive secrets): the secret hygiene test plants values in these too.
   */
  readonly secretVariants?: Record<string, unknown>[];
}

export type ConstructClass = new (scope: any, id: string, props: any) => ConvergeElement;

/** The construct classes the public modules export, by kind (`<api>.<ClassName>`). */
export function exportedConstructClasses(): Map<string, ConstructClass> {
  const out = new Map<string, ConstructClass>();
  for (const [api, mod] of [['platform', platform], ['secrets', secrets], ['mesh', mesh]] as const) {
    for (const [name, v] of Object.entries(mod)) {
      if (typeof v === 'function' && v.prototype instanceof ConvergeElement) out.set(`${api}.${name}`, v as unknown as ConstructClass);
    }
  }
  return out;
}

/** Exported abstract bases (they have no kind of their own). */
export const ABSTRACT_BASES = ['mesh.MeshConfigEntry', 'secrets.SecretsEngineRole', 'secrets.SecretsEngineCredentials',
  'secrets.LeasedSecretsEngineCredentials', 'secrets.LeasedCredential', 'secrets.DatabaseRoleBase'];

/** Exported construct classes that make an object of another kind (a `LeastPrivilegePolicy` is a `SecretsPolicy`). */
export const KIND_VARIANTS: Record<string, string> = {
  'secrets.LeastPrivilegePolicy': 'secrets.SecretsPolicy',
};

export function allKinds(): string[] {
  const k = registeredKinds();
  return [...k.resources, ...k.dataSources].sort();
}

/** A name a name-like field must refuse: spaces, slashes, traversal, unicode, control characters. */
/** An organization the platform constructs reference (any IOrganization: here a plain object, no construct). */
const ACME: platform.IOrganization = { organizationName: 'acme', organizationExternalId: 'org-acme' };
/** An organization reference whose name is any of `names`. */
const orgNamed = (names: fc.Arbitrary<string>) => names.map((organizationName): platform.IOrganization => ({ organizationName, organizationExternalId: 'org-x' }));

export const badName = fc.tuple(
  fc.stringMatching(/^[a-z0-9]{0,8}$/),
  fc.constantFrom(' ', '/', '../', '%2F', 'é', '名', '\u0000', '\n', '💥', '?', '#', '.'),
  fc.stringMatching(/^[a-z0-9]{0,8}$/),
).map(([a, b, c]) => a + b + c);
/**
 * A name the secrets service cannot take as one path segment. Its names may hold `.` inside (`db.prod`),
 * so `.` is tried alone, doubled and at either end instead of between other characters.
 */
const badSegmentName = fc.oneof(
  badName.filter((n) => !/^[a-z0-9]+\.[a-z0-9]+$/.test(n)),
  fc.constantFrom('.', '..', '.a', 'a.', '-a', 'a-', 'a b', 'a%2Fb', 'ü'),
);
export const goodName = fc.stringMatching(/^[a-z][a-z0-9_-]{0,30}$/);
const badDuration = fc.constantFrom('abc', '10x', '-5s', '1h-', 's', ' 10s', '10 s', '1.5.5s', '∞');
const notEnum = fc.stringMatching(/^[A-Z][a-z]{1,8}$/).map((s) => `not-${s}`);
/** Names the mesh API cannot address in its URL paths. */
const badMeshName = fc.oneof(fc.constantFrom('.', '..', '/x', 'x/'), fc.tuple(goodName, goodName).map(([a, b]) => `${a}/${b}`));
const badUrl = fc.constantFrom('', 'vcs.example.com', 'ftp://x', 'http://', 'https://a b', 'javascript:alert(1)');

/** A placeholder PEM block (the constructs check only its shape). */
const TEST_PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

export const KIND_PROPS: Record<string, KindProps> = {
  'platform.Organization': {
    base: { name: 'acme', email: 'ops@acme.io' },
    optional: {
      sessionTimeout: 60, sessionRemember: 120, collaboratorAuthPolicy: platform.CollaboratorAuthPolicy.TWO_FACTOR_MANDATORY,
      costEstimationEnabled: true, assessmentsEnforced: true, allowForceDeleteWorkspaces: false, ownersTeamSamlRoleId: 'role',
      aggregatedCommitStatusEnabled: true, defaultExecutionMode: platform.ExecutionMode.LOCAL,
    },
    valid: { name: goodName, sessionTimeout: fc.integer({ min: 1, max: 1e6 }) },
    invalid: {
      name: badName, email: fc.constantFrom('no-at', 'a@b', 'a b@c.d', '@x.io'),
      sessionTimeout: fc.oneof(fc.integer({ max: 0 }), fc.double({ min: 0.1, max: 100, noInteger: true }), fc.constant(NaN)),
      sessionRemember: fc.integer({ max: 0 }),
      collaboratorAuthPolicy: notEnum, defaultExecutionMode: notEnum,
    },
  },
  'platform.OAuthClient': {
    base: {
      organization: ACME, serviceProvider: platform.VcsServiceProvider.PROVIDER_A,
      httpUrl: 'https://vcs.example.com', apiUrl: 'https://api.vcs.example.com', oauthToken: SecretValue.unsafePlainText('t'),
    },
    optional: { name: 'vcs', key: 'k', organizationScoped: false, projects: [{ projectId: 'prj-1', projectName: 'p' }], secret: SecretValue.unsafePlainText('s') },
    secretVariants: [{
      organization: ACME, name: 'vcs-c', serviceProvider: platform.VcsServiceProvider.PROVIDER_C_SERVER, key: 'k', httpUrl: 'https://vcs.example.com',
      apiUrl: 'https://api.vcs.example.com', oauthToken: SecretValue.unsafePlainText('t'), privateKey: SecretValue.unsafePlainText('pk'),
    }],
    invalid: { organization: orgNamed(badName), serviceProvider: notEnum, httpUrl: badUrl, apiUrl: badUrl, projects: fc.constant([{ projectId: 'abc', projectName: 'p' }]) },
  },
  'platform.AgentPool': {
    base: { organization: ACME, name: 'pool' },
    optional: { organizationScoped: false, allowedWorkspaces: [{ workspaceId: 'ws-1', workspaceName: 'web' }], deleteInactiveAgents: true },
    valid: { name: goodName },
    invalid: { organization: orgNamed(badName), name: badName, allowedWorkspaces: fc.constant([{ workspaceId: 'x-1', workspaceName: 'web' }]) },
  },
  'platform.NoCodeModule': {
    base: { organization: ACME, moduleName: 'net', moduleProvider: 'aws' },
    optional: { versionPin: '1.0.0', enabled: false, variableOptions: [{ variableName: 'region', variableType: 'string', options: ['a'] }] },
    invalid: { organization: orgNamed(badName), moduleName: badName, moduleProvider: badName },
  },
  'platform.NoCodeWorkspace': {
    base: { organization: ACME, noCodeModule: { noCodeModuleId: 'nocode-1', pinnedVersion: '1.0.0' }, projectId: 'prj-1', name: 'ws' },
    optional: {
      description: 'd', autoApply: true, moduleVersion: '1.0.0', upgradeTimeout: '5m', upgradePollInterval: '1s',
      variables: [{ key: 'k', value: 'v' }, { key: 'p', sensitiveValue: SecretValue.unsafePlainText('x') }],
    },
    invalid: {
      organization: orgNamed(badName), name: badName, noCodeModule: fc.constant({ noCodeModuleId: 'mod-1', pinnedVersion: '1.0.0' }), projectId: fc.constant('ws-1'),
      upgradeTimeout: badDuration, upgradePollInterval: badDuration,
    },
  },
  'platform.DataRetentionPolicy': {
    base: { organization: ACME },
    optional: { deleteOlderThanNDays: 30 },
    invalid: { organization: orgNamed(badName), deleteOlderThanNDays: fc.oneof(fc.integer({ max: 0 }), fc.constant(1.5)) },
  },
  'platform.Project': {
    base: { organization: ACME, name: 'apps' },
    optional: { description: 'd' },
    invalid: { organization: orgNamed(badName), name: fc.constantFrom('ab', ' apps', 'a/b', 'x'.repeat(41)) },
  },
  'platform.Workspace': {
    base: { organization: ACME, name: 'web' },
    optional: {
      description: 'd', project: { projectId: 'prj-1', projectName: 'apps' }, terraformVersion: '1.9.5', workingDirectory: 'infra',
      autoApply: true, tags: ['team:web'],
    },
    valid: { name: goodName },
    invalid: {
      organization: orgNamed(badName), name: badName, tags: fc.constant(['Upper Case']), terraformVersion: fc.constantFrom('~> 1.5', 'x'),
      project: fc.constant({ projectId: 'ws-1', projectName: 'p' }), executionMode: notEnum,
    },
  },
  'platform.Variable': {
    base: { workspace: { workspaceId: 'ws-1', workspaceName: 'web' }, key: 'region' },
    optional: { value: 'eu', description: 'd', category: platform.VariableCategory.ENV },
    secretVariants: [{ workspace: { workspaceId: 'ws-1', workspaceName: 'web' }, key: 'TOKEN', sensitiveValue: SecretValue.unsafePlainText('s') }],
    invalid: { workspace: fc.constant({ workspaceId: 'prj-1', workspaceName: 'web' }), key: fc.constantFrom('bad key', 'a/b'), category: notEnum },
  },
  'platform.Team': {
    base: { organization: ACME, name: 'ops' },
    optional: { visibility: platform.TeamVisibility.ORGANIZATION, organizationAccess: { manageWorkspaces: true, readProjects: true } },
    valid: { name: goodName },
    invalid: { organization: orgNamed(badName), name: badName, visibility: notEnum },
  },
  'platform.TeamAccess': {
    base: { team: { teamId: 'team-1', teamName: 'ops' }, workspace: { workspaceId: 'ws-1', workspaceName: 'web' }, access: platform.TeamAccessLevel.READ },
    invalid: {
      team: fc.constant({ teamId: 'ws-1', teamName: 'ops' }), workspace: fc.constant({ workspaceId: 'team-1', workspaceName: 'web' }), access: notEnum,
    },
  },
  'platform.VariableSet': {
    base: { organization: ACME, name: 'cloud' },
    optional: {
      description: 'd', priority: true, workspaces: [{ workspaceId: 'ws-1', workspaceName: 'web' }], projects: [{ projectId: 'prj-1', projectName: 'apps' }],
    },
    invalid: {
      organization: orgNamed(badName), name: fc.constantFrom(' lead', 'x'.repeat(129)),
      workspaces: fc.constant([{ workspaceId: 'prj-1', workspaceName: 'web' }]), projects: fc.constant([{ projectId: 'ws-1', projectName: 'apps' }]),
    },
  },
  'platform.OrganizationEntitlements': { base: { organization: ACME }, invalid: { organization: orgNamed(badName) } },
  'platform.ModuleProducers': { base: { organization: ACME }, invalid: { organization: orgNamed(badName) } },
  'platform.Agents': {
    base: { agentPool: { agentPoolId: 'apool-1', agentPoolName: 'pool' } },
    optional: { statuses: [platform.AgentStatus.IDLE], lastPingSince: '2026-01-01T00:00:00Z' },
    invalid: { agentPool: fc.constantFrom('pool-1', '').map((agentPoolId) => ({ agentPoolId, agentPoolName: 'pool' })), statuses: notEnum.map((s) => [s]), lastPingSince: fc.constantFrom('yesterday', 'x') },
  },
  'secrets.KvSecret': {
    base: { path: 'app/db', data: { user: 'u', password: SecretValue.unsafePlainText('p') } },
    optional: { mount: 'kv', customMetadata: { owner: 'ops' }, maxVersions: 5, casRequired: true, deleteVersionAfter: '1h' },
    valid: { path: fc.array(goodName, { minLength: 1, maxLength: 4 }).map((a) => a.join('/')) },
    invalid: {
      path: fc.constantFrom('/a', 'a/', 'a//b', 'a/../b', '..', 'a/./b', '../x'),
      mount: fc.constantFrom('/kv', 'kv/', 'a/../b', '..', 'a//b'),
      maxVersions: fc.oneof(fc.integer({ max: -1 }), fc.constant(1.5)),
      deleteVersionAfter: fc.oneof(badDuration, fc.constant('1.5s')),
      data: fc.constantFrom({ k: { nested: 1 } }, { k: null }, { k: Infinity }, { '': 'v' }),
      customMetadata: fc.constantFrom({ k: '' }, { k: 'x'.repeat(513) }, { ['k'.repeat(129)]: 'v' }, { k: 5 }),
    },
  },
  'secrets.KvEngineConfig': {
    base: {},
    optional: { mount: 'kv', maxVersions: 10, casRequired: true, deleteVersionAfter: '24h' },
    invalid: {
      mount: fc.constantFrom('', '/kv', 'kv/', 'a/../b'), maxVersions: fc.integer({ max: -1 }),
      deleteVersionAfter: badDuration,
    },
  },
  // The system backend's mount table and policies.
  'secrets.SecretsMount': {
    base: { path: 'team-kv', type: 'kv' },
    valid: { path: fc.constantFrom('team-kv', 'team/kv', 'a.b', 'kv_2') },
    optional: { description: 'team secrets', defaultLeaseTtl: '1h', maxLeaseTtl: '24h', options: { version: '2' } },
    invalid: {
      path: fc.constantFrom('/kv', 'kv/', 'a//b', 'a/../b', '..'),
      type: fc.constantFrom('KV', 'kv v2', '-kv', 'kv/2'),
      defaultLeaseTtl: badDuration, maxLeaseTtl: badDuration,
      options: fc.constantFrom({ version: 2 }, { version: null }),
    },
  },
  'secrets.SecretsPolicy': {
    base: { name: 'app-read', policy: 'path "secret/data/app/*" { capabilities = ["read"] }' },
    valid: { name: fc.constantFrom('app-read', 'ci.prod', 'team_a-2', '_x') },
    invalid: { name: fc.constantFrom('App', 'root', 'default', 'a/b', 'a b', '-a', 'a-'), policy: fc.constantFrom('', '  ') },
  },
  'secrets.AuthBackend': {
    base: { path: 'approle', type: 'approle' },
    optional: { description: 'machines', defaultLeaseTtl: '1h', maxLeaseTtl: '24h', options: { a: 'b' } },
    invalid: { path: fc.constantFrom('/a', 'a/', 'a//b', '..'), type: fc.constantFrom('AppRole', 'app role'), defaultLeaseTtl: badDuration },
  },
  'secrets.AppRoleRole': {
    base: { name: 'ci' },
    optional: { mount: 'approle', tokenPolicies: ['ci-app'], tokenTtl: '1h', tokenMaxTtl: '2h', tokenNumUses: 1, tokenType: 'batch', bindSecretId: true, secretIdTtl: '24h', secretIdNumUses: 3 },
    invalid: {
      name: fc.constantFrom('CI', 'a/b', 'a b', '-a'), tokenTtl: badDuration, secretIdTtl: badDuration, tokenType: fc.constantFrom('token', 'Service'),
      tokenPolicies: fc.constantFrom(['Admin'], ['a b']), secretIdNumUses: fc.integer({ max: -1 }),
    },
  },
  // Secrets engines (names are one path segment of the service: see badSegmentName).
  'secrets.DatabaseConnection': {
    base: { name: 'pg', connectionUrl: 'postgresql://{{username}}:{{password}}@db:5432/app' },
    valid: { name: fc.constantFrom('pg', 'db.prod', 'pg_main-2', '_x') },
    optional: { mount: 'database', username: 'root', password: SecretValue.unsafePlainText('pw'), allowedRoles: ['app'], verifyConnection: false },
    invalid: { name: badSegmentName, mount: fc.constantFrom('/db', 'a/../b') },
  },
  'secrets.DatabaseRole': {
    base: { name: 'app', dbName: 'pg', creationStatements: ['CREATE ROLE "{{name}}"'] },
    optional: { defaultTtl: '1h', maxTtl: '24h', revocationStatements: ['DROP ROLE "{{name}}"'] },
    invalid: { name: badSegmentName, defaultTtl: badDuration, maxTtl: badDuration },
  },
  'secrets.DatabaseStaticRole': {
    base: { name: 'app', dbName: 'pg', username: 'app_user', rotationPeriod: '24h' },
    optional: { rotationStatements: ['ALTER ROLE x'] },
    invalid: { name: badSegmentName, rotationPeriod: badDuration },
  },
  'secrets.DirectoryConfig': {
    base: { binddn: 'cn=admin,dc=example,dc=org', bindpass: SecretValue.unsafePlainText('pw') },
    optional: { url: 'ldaps://dir.example.org', maxTtl: '0s', length: 20, insecureTls: false },
    invalid: { ttl: badDuration, length: fc.integer({ max: 0 }) },
  },
  'secrets.DirectoryRole': {
    base: { name: 'app', serviceAccountName: 'svc-app' },
    optional: { ttl: '1h' },
    invalid: { name: badSegmentName, ttl: badDuration },
  },
  'secrets.DirectoryLibrarySet': {
    base: { name: 'lib', serviceAccountNames: ['a', 'b'] },
    optional: { maxTtl: '0s', disableCheckInEnforcement: true },
    invalid: { name: badSegmentName, serviceAccountNames: fc.constantFrom([], ['a,b'], ['']), ttl: badDuration },
  },
  'secrets.TotpKey': {
    base: { name: 'login', key: SecretValue.unsafePlainText('JBSWY3DPEHPK3PXP') },
    optional: { digits: 8, period: 60, algorithm: secrets.TotpAlgorithm.SHA256, issuer: 'Acme', accountName: 'ops@acme.io' },
    secretVariants: [{ name: 'login-url', url: SecretValue.unsafePlainText('otpauth://totp/Acme:ops@acme.io?secret=JBSWY3DPEHPK3PXP&issuer=Acme') }],
    invalid: { name: fc.constantFrom('a/b', ''), digits: fc.constantFrom(5, 7, 9), period: fc.integer({ max: 0 }), algorithm: notEnum },
  },
  'secrets.TotpKeyInfo': { base: { name: 'login' }, optional: { mount: 'totp' }, invalid: { mount: fc.constantFrom('/x', 'a/../b') } },
  'secrets.PlatformTokenConfig': {
    base: {},
    optional: { address: 'https://platform.example.com', token: SecretValue.unsafePlainText('t') },
    invalid: { mount: fc.constantFrom('/x', 'a/../b') },
  },
  'secrets.PlatformTokenRole': {
    base: { name: 'ci', organization: 'acme' },
    invalid: { name: badSegmentName, ttl: badDuration },
  },
  'secrets.MeshTokenConfig': {
    base: { address: 'mesh.example.com:8500' },
    optional: { scheme: secrets.MeshScheme.HTTPS, token: SecretValue.unsafePlainText('t') },
    secretVariants: [{ mount: 'mesh-tls', address: 'mesh.example.com:8501', scheme: secrets.MeshScheme.HTTPS, clientCert: TEST_PEM, clientKey: SecretValue.unsafePlainText('k'),
      token: SecretValue.unsafePlainText('t') }],
    invalid: { scheme: notEnum },
  },
  'secrets.MeshTokenRole': {
    base: { name: 'svc', meshPolicies: ['read'] },
    optional: { ttl: '1h', maxTtl: '2h' },
    invalid: { name: badSegmentName, tokenType: notEnum, ttl: badDuration },
  },
  'secrets.PlatformTokenCredentials': {
    base: { role: { mount: 'platform', roleName: 'ci' } },
    invalid: { role: fc.constantFrom({ mount: 'platform', roleName: 'a/b' }, { mount: 'platform', roleName: '' }, { mount: 'platform' }) },
  },
  'secrets.MeshTokenCredentials': {
    base: { role: { mount: 'mesh', roleName: 'web' } },
    invalid: { role: fc.constantFrom({ mount: 'mesh', roleName: 'a b' }, { roleName: 'web' }) },
  },
  'secrets.AppRoleSecretId': {
    base: { role: { mount: 'approle', roleName: 'ci' } },
    invalid: { role: fc.constantFrom({ mount: 'approle', roleName: 'a/b' }, { mount: 'approle', roleName: '' }, { mount: 'approle' }) },
  },
  'secrets.DatabaseCredentials': {
    base: { role: { mount: 'database', roleName: 'app' } },
    invalid: { role: fc.constantFrom({ mount: 'database', roleName: 'a/b' }, { mount: 'database', roleName: '' }, { mount: 'database' }) },
  },
  'secrets.DatabaseStaticCredentials': {
    base: { role: { mount: 'database', roleName: 'app' } },
    invalid: { role: fc.constantFrom({ mount: 'database', roleName: 'a b' }, { roleName: 'app' }) },
  },
  'secrets.DirectoryCredentials': {
    base: { role: { mount: 'directory', roleName: 'ops' } },
    invalid: { role: fc.constantFrom({ mount: 'directory', roleName: 'a/b' }, { mount: 'directory' }) },
  },
  'secrets.DirectoryLibraryCheckOut': {
    base: { librarySet: { mount: 'directory', setName: 'batch' } },
    optional: { ttl: '1h' },
    invalid: { librarySet: fc.constantFrom({ mount: 'directory', setName: 'a/b' }, { mount: 'directory' }), ttl: badDuration },
  },
  'secrets.PushMfaMethod': {
    base: { methodName: 'push', secretKey: SecretValue.unsafePlainText('sk'), integrationKey: SecretValue.unsafePlainText('ik'), apiHostname: 'api.push.example.com' },
    optional: { usernameFormat: '{{identity.entity.name}}', usePasscode: true },
    invalid: { methodName: badSegmentName },
  },
  'secrets.KvSecretData': { base: { path: 'app/db' }, optional: { version: 2 }, invalid: { path: fc.constantFrom('a/../b', '/a', 'a/'), version: fc.integer({ max: -1 }) } },
  'secrets.KvSecretSubkeys': {
    base: { path: 'app/db' }, optional: { version: 2, depth: 1 },
    invalid: { path: fc.constantFrom('a/../b', '/a', 'a/'), version: fc.integer({ max: -1 }), depth: fc.integer({ max: -1 }) },
  },
  'mesh.ServiceDefaults': {
    base: { name: 'web' },
    optional: { protocol: mesh.MeshProtocol.HTTP, namespace: 'default', meta: { team: 'a' }, externalSni: 'web.example.com', meshGateway: { mode: mesh.MeshGatewayMode.LOCAL } },
    valid: { name: goodName },
    invalid: {
      name: badMeshName, protocol: notEnum, meshGateway: notEnum.map((mode) => ({ mode })) },
  },
  'mesh.ProxyDefaults': {
    base: {},
    optional: { protocol: mesh.MeshProtocol.HTTP, config: { local_connect_timeout_ms: 1000 }, meshGateway: { mode: mesh.MeshGatewayMode.REMOTE } },
    invalid: { protocol: notEnum, meshGateway: notEnum.map((mode) => ({ mode })) },
  },
  'mesh.ServiceResolver': {
    base: { name: 'web' },
    optional: { connectTimeout: '15s', subsets: { v1: { filter: 'Service.Meta.version == v1' } }, failover: { '*': { datacenters: ['dc2'] } } },
    valid: { name: goodName },
    invalid: {
      name: badMeshName, connectTimeout: badDuration, subsets: fc.constant({ v1: { filter: 'not a filter ((' } }) },
  },
  'mesh.ServiceSplitter': {
    base: { name: 'web', splits: [{ weight: 100 }] },
    optional: { namespace: 'default' },
    valid: { name: goodName },
    invalid: {
      name: badMeshName,
      splits: fc.oneof(fc.constant([]), fc.integer({ min: 101, max: 1000 }).map((w) => [{ weight: w }]),
        fc.integer({ min: 1, max: 99 }).map((w) => [{ weight: w }]), fc.constant([{ weight: -1 }, { weight: 101 }])),
    },
  },
  'mesh.ServiceRouter': {
    base: { name: 'web' },
    optional: { routes: [{ match: { http: { pathPrefix: '/admin' } }, destination: { service: 'admin', requestTimeout: '30s' } }] },
    valid: { name: goodName },
    invalid: {
      name: badMeshName,
      routes: fc.constantFrom(
        [{ match: { http: { pathPrefix: 'admin' } } }],
        [{ match: { http: { pathPrefix: '/a', pathExact: '/b' } } }],
        [{ destination: { requestTimeout: 'abc' } }],
      ),
    },
  },
  'mesh.ServiceIntentions': {
    base: { name: 'api', sources: [{ name: 'web', action: mesh.IntentionAction.ALLOW }] },
    optional: {
      meta: { owner: 'team' },
      sources: [{ name: 'web', permissions: [{ action: mesh.IntentionAction.ALLOW, http: { pathPrefix: '/v1', methods: ['GET'] } }] }, { name: '*', action: mesh.IntentionAction.DENY }],
    },
    valid: { name: goodName },
    invalid: {
      name: badMeshName,
      sources: fc.constantFrom(
        [],
        [{ name: 'web' }],
        [{ name: 'web', action: 'maybe' }],
        [{ name: 'we*b', action: 'allow' }],
        [{ name: 'web', action: 'allow' }, { name: 'web', action: 'deny' }],
        [{ name: 'web', action: 'allow', permissions: [{ action: 'allow', http: { pathPrefix: '/a' } }] }],
        [{ name: 'web', permissions: [{ action: 'allow', http: {} }] }],
        [{ name: 'web', permissions: [{ action: 'allow', http: { pathPrefix: 'a' } }] }],
        [{ name: 'web', permissions: [{ action: 'allow', http: { methods: ['FETCH'] } }] }],
        [{ name: 'web', permissions: [{ action: 'allow', http: { header: [{ name: 'x', exact: 'a', present: true }] } }] }],
      ),
    },
  },
  'mesh.AclPolicy': {
    base: { name: 'web-write' },
    optional: { rules: 'service "web" { policy = "write" }', description: 'the web team', datacenters: ['dc1'] },
    valid: { name: goodName },
    invalid: { name: fc.constantFrom('', 'bad name', 'a/b/c', 'x'.repeat(129), 'é') },
  },
  'mesh.AclRole': {
    base: { name: 'web-team' },
    optional: { description: 'the web team', policies: ['web-write'], serviceIdentities: [{ serviceName: 'web', datacenters: ['dc1'] }], nodeIdentities: [{ nodeName: 'n1', datacenter: 'dc1' }] },
    valid: { name: goodName },
    invalid: {
      name: fc.constantFrom('', 'bad name', 'a/b', 'x'.repeat(257)),
      serviceIdentities: fc.constantFrom([{ serviceName: 'We b' }], [{ serviceName: '' }], [{ datacenters: ['dc1'] }]),
      nodeIdentities: fc.constantFrom([{ nodeName: 'n1' }], [{ datacenter: 'dc1' }]),
    },
  },
  'mesh.AclToken': {
    base: {},
    optional: { description: 'ci', policies: ['web-write'], roles: ['web-team'], serviceIdentities: [{ serviceName: 'web' }], nodeIdentities: [{ nodeName: 'n1', datacenter: 'dc1' }], local: true },
    invalid: {
      serviceIdentities: fc.constantFrom([{ serviceName: 'We b' }], [{ serviceName: '' }]),
      nodeIdentities: fc.constantFrom([{ nodeName: 'n1' }], [{ datacenter: 'dc1' }]),
    },
  },
  'mesh.DiscoveryChain': {
    base: { service: 'web' },
    optional: { namespace: 'default', compileDatacenter: 'dc2', overrides: { connectTimeout: '5s', protocol: mesh.MeshProtocol.HTTP } },
    invalid: {
      service: badMeshName,
      overrides: fc.oneof(badDuration.map((connectTimeout) => ({ connectTimeout })), notEnum.map((protocol) => ({ protocol })),
        notEnum.map((meshGatewayMode) => ({ meshGatewayMode }))),
    },
  },
};
