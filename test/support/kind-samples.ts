import { TerraformStack } from 'cdktf';
import { Client } from 'pg';
import { RemovalPolicy, SecretValue } from '../../lib';
import { AclPolicy } from '../../lib/mesh/acl/acl-policy';
import { AclRole } from '../../lib/mesh/acl/acl-role';
import { AclToken } from '../../lib/mesh/acl/acl-token';
import { MeshProtocol } from '../../lib/mesh/shared/mesh-types';
import { ProxyDefaults } from '../../lib/mesh/config-entry/proxy-defaults';
import { ServiceDefaults } from '../../lib/mesh/config-entry/service-defaults';
import { IntentionAction } from '../../lib/mesh/config-entry/intention-types';
import { ServiceIntentions } from '../../lib/mesh/config-entry/service-intentions';
import { ServiceResolver } from '../../lib/mesh/config-entry/service-resolver';
import { ServiceRouter } from '../../lib/mesh/config-entry/service-router';
import { ServiceSplitter } from '../../lib/mesh/config-entry/service-splitter';
import { AgentPool } from '../../lib/platform/agent-pool/agent-pool';
import { DataRetentionPolicy } from '../../lib/platform/organization/data-retention-policy';
import { NoCodeModule } from '../../lib/platform/no-code/no-code-module';
import { NoCodeWorkspace, VariableCategory } from '../../lib/platform/no-code/no-code-workspace';
import { OAuthClient, VcsServiceProvider } from '../../lib/platform/oauth-client/oauth-client';
import { IOrganization, Organization } from '../../lib/platform/organization/organization';
import { Project } from '../../lib/platform/project/project';
import { Team } from '../../lib/platform/team/team';
import { TeamAccess, TeamAccessLevel } from '../../lib/platform/team/team-access';
import { Variable } from '../../lib/platform/variable/variable';
import { VariableSet } from '../../lib/platform/variable-set/variable-set';
import { Workspace } from '../../lib/platform/workspace/workspace';
import { DatabaseConnection } from '../../lib/secrets/database/database-connection';
import { DatabaseRole } from '../../lib/secrets/database/database-role';
import { DatabaseStaticRole } from '../../lib/secrets/database/database-static-role';
import { DirectoryConfig } from '../../lib/secrets/directory/directory-config';
import { DirectoryLibrarySet } from '../../lib/secrets/directory/directory-library-set';
import { DirectoryRole } from '../../lib/secrets/directory/directory-role';
import { KvEngineConfig } from '../../lib/secrets/kv/kv-engine-config';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { MeshTokenConfig } from '../../lib/secrets/mesh-token/mesh-token-config';
import { MeshTokenRole } from '../../lib/secrets/mesh-token/mesh-token-role';
import { PlatformTokenConfig } from '../../lib/secrets/platform-token/platform-token-config';
import { PlatformTokenRole } from '../../lib/secrets/platform-token/platform-token-role';
import { PushMfaMethod } from '../../lib/secrets/push-mfa/push-mfa-method';
import { TotpKey } from '../../lib/secrets/totp/totp-key';
import { SecretsMount } from '../../lib/secrets/sys/secrets-mount';
import { SecretsPolicy } from '../../lib/secrets/sys/secrets-policy';
import { AuthBackend } from '../../lib/secrets/sys/auth-backend';
import { AppRoleRole } from '../../lib/secrets/approle/approle-role';

/** The emulator's addresses and tokens (`EmulatorProcess.env`, `Emulator.env`). */
export type ApiEnv = Record<string, string>;

/**
 * A sample object per resource kind, for the reliability tests (crash torture, refresh after
 * apply). The registry test fails when a kind is registered without a sample or a reason to skip it.
 */
export interface KindSample {
  /** Adds the i-th object of this kind (and what it needs) to the stack. */
  readonly build: (stack: TerraformStack, i: number) => void;
  /** How many of this kind go into a mixed stack (scale 1). */
  readonly weight: number;
  /** At most this many whatever the scale (a singleton of the whole API). */
  readonly max?: number;
  /** How many of the samples (of any i) are on the APIs: a duplicate or a missing object shows. */
  readonly count: (env: ApiEnv, n: number) => Promise<number>;
}

/** Secret values planted in samples; hygiene tests search for them. */
export const PLANTED = {
  oauthToken: 'planted-oauth-token-61f0aa',
  kvPassword: 'planted-kv-password-2be7d1',
  engineSecret: 'planted-engine-secret-9c04e3',
};
/** The environment variables the samples read their secrets from (a CLI run needs them). */
export const PLANTED_ENV = {
  PLANTED_OAUTH_TOKEN: PLANTED.oauthToken, PLANTED_KV_PASSWORD: PLANTED.kvPassword, PLANTED_ENGINE_SECRET: PLANTED.engineSecret,
};
Object.assign(process.env, PLANTED_ENV);

const orgName = (i: number) => `t-org-${i}`;
/** Organizations seeded (not managed) for the no-code samples: a registry module and a project each. */
const ncOrg = (i: number) => `t-nc-${i}`;
const BINDDN = 'CN=converge,OU=svc,DC=example,DC=com';
const range = (n: number) => [...Array(n).keys()];

async function get(url: string, headers: Record<string, string>): Promise<any> {
  const res = await fetch(url, { headers });
  if (res.status === 404) return undefined;
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  const text = await res.text();
  return text ? JSON.parse(text) : {};
}
const platformGet = (env: ApiEnv, path: string) => get(`${env.PLATFORM_ADDRESS}/api/v2${path}`, { authorization: `Bearer ${env.PLATFORM_TOKEN}` });
const secretsGet = (env: ApiEnv, path: string) => get(`${env.SECRETS_ADDR}/v1/${path}`, { 'x-secrets-token': env.SECRETS_TOKEN });
const secretsKeys = async (env: ApiEnv, path: string) => ((await secretsGet(env, `${path}?list=true`))?.data?.keys ?? []) as string[];
const meshEntries = async (env: ApiEnv, kind: string, query = '') =>
  ((await get(`${env.MESH_HTTP_ADDR}/v1/config/${kind}${query}`, { 'x-mesh-token': env.MESH_HTTP_TOKEN })) ?? []) as { Name: string; Namespace?: string }[];
const meshAcl = async (env: ApiEnv, what: 'policies' | 'roles' | 'tokens') =>
  ((await get(`${env.MESH_HTTP_ADDR}/v1/acl/${what}`, { 'x-mesh-token': env.MESH_HTTP_TOKEN })) ?? []) as unknown[];
const countWhere = async (n: number, exists: (i: number) => Promise<boolean>) => (await Promise.all(range(n).map(exists))).filter(Boolean).length;

export const KIND_SAMPLES: Record<string, KindSample> = {
  'platform.Organization': {
    weight: 10,
    build: (stack, i) => { organization(stack, i); },
    count: async (env) => ((await platformGet(env, '/organizations?q=t-org-'))?.data ?? []).length,
  },
  'platform.OAuthClient': {
    weight: 10,
    build: (stack, i) => {
      new OAuthClient(stack, `vcs${i}`, {
        organization: organization(stack, i), name: `vcs-${i}`, serviceProvider: VcsServiceProvider.PROVIDER_A, key: `key-${i}`,
        httpUrl: 'https://vcs.example.com', apiUrl: 'https://api.vcs.example.com', oauthToken: SecretValue.fromEnv('PLANTED_OAUTH_TOKEN'),
      });
    },
    count: async (env, n) => (await Promise.all(range(n).map(async (i) => ((await platformGet(env, `/organizations/${orgName(i)}/oauth-clients`))?.data ?? []).length)))
      .reduce((a, b) => a + b, 0),
  },
  'platform.AgentPool': {
    weight: 10,
    build: (stack, i) => {
      new AgentPool(stack, `pool${i}`, { organization: organization(stack, i), name: `pool-${i}`, allowedWorkspaces: [] });
    },
    count: async (env, n) => (await Promise.all(range(n).map(async (i) => ((await platformGet(env, `/organizations/${orgName(i)}/agent-pools`))?.data ?? []).length)))
      .reduce((a, b) => a + b, 0),
  },
  'platform.DataRetentionPolicy': {
    weight: 5,
    build: (stack, i) => { new DataRetentionPolicy(stack, `retention${i}`, { organization: organization(stack, i), deleteOlderThanNDays: 30 + i }); },
    count: (env, n) => countWhere(n, async (i) => {
      const p = await platformGet(env, `/organizations/${orgName(i)}/relationships/data-retention-policy`);
      return p?.data?.attributes?.['delete-older-than-n-days'] === 30 + i;
    }),
  },
  'platform.Project': {
    weight: 5,
    build: (stack, i) => { project(stack, i); },
    count: (env, n) => countWhere(n, async (i) => ((await platformGet(env, `/organizations/${orgName(i)}/projects?filter[names]=apps-${i}`))?.data ?? []).length === 1),
  },
  'platform.Workspace': {
    weight: 5,
    build: (stack, i) => { workspace(stack, i); },
    count: (env, n) => countWhere(n, async (i) => (await platformGet(env, `/organizations/${orgName(i)}/workspaces/ws-${i}`)) !== undefined),
  },
  'platform.Variable': {
    weight: 5,
    build: (stack, i) => {
      new Variable(stack, `var${i}`, { workspace: workspace(stack, i), key: 'TOKEN', category: VariableCategory.ENV, sensitiveValue: SecretValue.fromEnv('PLANTED_ENGINE_SECRET') });
    },
    count: (env, n) => countWhere(n, async (i) => {
      const ws = await platformGet(env, `/organizations/${orgName(i)}/workspaces/ws-${i}`);
      const vars = ws ? (await platformGet(env, `/workspaces/${ws.data.id}/vars`))?.data ?? [] : [];
      return vars.some((v: any) => v.attributes.key === 'TOKEN');
    }),
  },
  'platform.Team': {
    weight: 5,
    build: (stack, i) => { team(stack, i); },
    count: (env, n) => countWhere(n, async (i) => ((await platformGet(env, `/organizations/${orgName(i)}/teams?filter[names]=team-${i}`))?.data ?? []).length === 1),
  },
  'platform.TeamAccess': {
    weight: 5,
    build: (stack, i) => { new TeamAccess(stack, `access${i}`, { team: team(stack, i), workspace: workspace(stack, i), access: TeamAccessLevel.PLAN }); },
    count: (env, n) => countWhere(n, async (i) => {
      const ws = await platformGet(env, `/organizations/${orgName(i)}/workspaces/ws-${i}`);
      return ws ? ((await platformGet(env, `/team-workspaces?filter[workspace][id]=${ws.data.id}`))?.data ?? []).length === 1 : false;
    }),
  },
  'platform.VariableSet': {
    weight: 5,
    build: (stack, i) => {
      new VariableSet(stack, `varset${i}`, { organization: organization(stack, i), name: `set-${i}`, workspaces: [workspace(stack, i)], projects: [project(stack, i)] });
    },
    count: async (env, n) => (await Promise.all(range(n).map(async (i) => ((await platformGet(env, `/organizations/${orgName(i)}/varsets`))?.data ?? []).length)))
      .reduce((a, b) => a + b, 0),
  },
  'platform.NoCodeModule': {
    weight: 3,
    build: (stack, i) => { noCodeModule(stack, i); },
    count: async (env, n) => (await Promise.all(range(n).map(async (i) => {
      const mod = await platformGet(env, `/organizations/${ncOrg(i)}/registry-modules/private/${ncOrg(i)}/bucket/aws`);
      return (mod?.data?.relationships?.['no-code-modules']?.data ?? []).length;
    }))).reduce((a, b) => a + b, 0),
  },
  'platform.NoCodeWorkspace': {
    weight: 3,
    build: (stack, i) => {
      const mod = noCodeModule(stack, i);
      new NoCodeWorkspace(stack, `ncws${i}`, {
        organization: ncOrganization(stack, i), noCodeModule: mod, projectId: ncProjects[i] ?? 'prj-unseeded', name: `t-ncws-${i}`,
        variables: [{ key: 'size', value: 's' }], upgradePollInterval: '20ms',
      });
    },
    count: (env, n) => countWhere(n, async (i) => (await platformGet(env, `/organizations/${ncOrg(i)}/workspaces/t-ncws-${i}`)) !== undefined),
  },
  'secrets.KvSecret': {
    weight: 120,
    build: (stack, i) => {
      new KvSecret(stack, `kv${i}`, { path: `torture/s${i}`, data: { n: String(i), password: SecretValue.fromEnv('PLANTED_KV_PASSWORD') } });
    },
    count: async (env) => (await secretsKeys(env, 'secret/metadata/torture/')).length,
  },
  'secrets.KvEngineConfig': {
    weight: 3,
    // A mount's configuration always exists (its defaults): taking it over is adopting it.
    build: (stack, i) => { new KvEngineConfig(stack, `kvcfg${i}`, { mount: `t-kv-${i}`, maxVersions: 7, deleteVersionAfter: '60m' }); },
    count: (env, n) => countWhere(n, async (i) => (await secretsGet(env, `t-kv-${i}/config`))?.data?.max_versions === 7),
  },
  'secrets.SecretsMount': {
    weight: 3,
    build: (stack, i) => { new SecretsMount(stack, `mnt${i}`, { path: `t-mnt-${i}`, type: 'totp', description: `sample ${i}`, defaultLeaseTtl: '1h' }); },
    count: async (env) => Object.keys((await secretsGet(env, 'sys/mounts'))?.data ?? {}).filter((p) => p.startsWith('t-mnt-')).length,
  },
  'secrets.AuthBackend': {
    // As many as the AppRole role samples, which are placed in them (the same i).
    weight: 5,
    build: (stack, i) => { authBackend(stack, i); },
    count: async (env, n) => {
      const paths = Object.keys((await secretsGet(env, 'sys/auth'))?.data ?? {});
      return range(n).filter((i) => paths.includes(`t-auth-${i}/`)).length;
    },
  },
  'secrets.AppRoleRole': {
    weight: 5,
    build: (stack, i) => { new AppRoleRole(stack, `arole${i}`, { authBackend: authBackend(stack, i), name: `t-arole-${i}`, tokenPolicies: ['b', 'a'], secretIdTtl: '1h' }); },
    count: async (env, n) => (await Promise.all(range(n).map(async (i) => (await secretsKeys(env, `auth/t-auth-${i}/role`)).length))).reduce((a, b) => a + b, 0),
  },
  'secrets.SecretsPolicy': {
    weight: 5,
    build: (stack, i) => { new SecretsPolicy(stack, `pol${i}`, { name: `t-pol-${i}`, policy: `path "secret/data/t/${i}/*" { capabilities = ["read"] }` }); },
    count: async (env) => (await secretsKeys(env, 'sys/policies/acl')).filter((k) => k.startsWith('t-pol-')).length,
  },
  'secrets.TotpKey': {
    weight: 5,
    build: (stack, i) => { new TotpKey(stack, `totp${i}`, { name: `t-totp-${i}`, generate: true, issuer: 'Torture', accountName: `user-${i}` }); },
    count: async (env) => (await secretsKeys(env, 'totp/keys')).filter((k) => k.startsWith('t-totp-')).length,
  },
  'secrets.PlatformTokenConfig': {
    weight: 3,
    build: (stack, i) => {
      new PlatformTokenConfig(stack, `ptokcfg${i}`, { mount: `t-ptok-${i}`, address: 'https://platform.example.com', token: SecretValue.fromEnv('PLANTED_ENGINE_SECRET') });
    },
    count: (env, n) => countWhere(n, async (i) => (await secretsGet(env, `t-ptok-${i}/config`))?.data?.address === 'https://platform.example.com'),
  },
  'secrets.PlatformTokenRole': {
    weight: 5,
    build: (stack, i) => { new PlatformTokenRole(stack, `ptok${i}`, { name: `t-role-${i}`, userId: `user-${i}`, ttl: '60m', maxTtl: '2h' }); },
    count: async (env) => (await secretsKeys(env, 'platform/role')).filter((k) => k.startsWith('t-role-')).length,
  },
  'secrets.MeshTokenConfig': {
    weight: 3,
    build: (stack, i) => {
      new MeshTokenConfig(stack, `mtokcfg${i}`, { mount: `t-mtok-${i}`, address: 'mesh.example.com:8500', token: SecretValue.fromEnv('PLANTED_ENGINE_SECRET') });
    },
    count: (env, n) => countWhere(n, async (i) => (await secretsGet(env, `t-mtok-${i}/config/access`))?.data?.address === 'mesh.example.com:8500'),
  },
  'secrets.MeshTokenRole': {
    weight: 5,
    // Policies and roles given unsorted and repeated: the service keeps them as sets.
    build: (stack, i) => {
      new MeshTokenRole(stack, `mtok${i}`, { name: `t-role-${i}`, meshPolicies: ['web', 'ops', 'web'], meshRoles: ['b', 'a', 'b'], ttl: '3600' });
    },
    count: async (env) => (await secretsKeys(env, 'mesh/roles')).filter((k) => k.startsWith('t-role-')).length,
  },
  'secrets.PushMfaMethod': {
    weight: 5,
    build: (stack, i) => {
      new PushMfaMethod(stack, `mfa${i}`, {
        methodName: `t-mfa-${i}`, secretKey: SecretValue.fromEnv('PLANTED_ENGINE_SECRET'), integrationKey: SecretValue.fromEnv('PLANTED_ENGINE_SECRET'),
        apiHostname: 'api-1.push.example.com',
      });
    },
    // Methods are known by id only: every method counts, so a duplicate shows.
    count: async (env) => (await secretsKeys(env, 'identity/mfa/method/pushmfa')).length,
  },
  'secrets.DirectoryConfig': {
    weight: 3,
    build: (stack, i) => { directoryConfig(stack, i); },
    count: (env, n) => countWhere(n, async (i) => (await secretsGet(env, `t-dir-${i}/config`))?.data?.binddn === BINDDN),
  },
  'secrets.DirectoryRole': {
    weight: 3,
    build: (stack, i) => { new DirectoryRole(stack, `dirrole${i}`, { config: directoryConfig(stack, i), name: 'app', serviceAccountName: 'svc-role', ttl: '1h' }); },
    count: async (env, n) => (await Promise.all(range(n).map(async (i) => (await secretsKeys(env, `t-dir-${i}/roles`)).length))).reduce((a, b) => a + b, 0),
  },
  'secrets.DirectoryLibrarySet': {
    weight: 3,
    build: (stack, i) => {
      new DirectoryLibrarySet(stack, `dirlib${i}`, { config: directoryConfig(stack, i), name: 'ops', serviceAccountNames: ['svc-lib-b', 'svc-lib-a'], ttl: '90m' });
    },
    count: async (env, n) => (await Promise.all(range(n).map(async (i) => (await secretsKeys(env, `t-dir-${i}/library`)).length))).reduce((a, b) => a + b, 0),
  },
  'secrets.DatabaseConnection': {
    weight: 3,
    build: (stack, i) => { databaseConnection(stack, i); },
    count: async (env) => (await secretsKeys(env, 'database/config')).filter((k) => k.startsWith('t-db-')).length,
  },
  'secrets.DatabaseRole': {
    weight: 3,
    build: (stack, i) => {
      new DatabaseRole(stack, `dbrole${i}`, {
        name: `t-dbrole-${i}`, connection: databaseConnection(stack, i), defaultTtl: '3600', maxTtl: '120m',
        creationStatements: ['CREATE ROLE "{{name}}" WITH LOGIN PASSWORD \'{{password}}\' VALID UNTIL \'{{expiration}}\''],
      });
    },
    count: async (env) => (await secretsKeys(env, 'database/roles')).filter((k) => k.startsWith('t-dbrole-')).length,
  },
  'secrets.DatabaseStaticRole': {
    weight: 3,
    build: (stack, i) => {
      new DatabaseStaticRole(stack, `dbstatic${i}`, { name: `t-dbstatic-${i}`, connection: databaseConnection(stack, i), username: `t_static_${i}`, rotationPeriod: '1440m' });
    },
    count: async (env) => (await secretsKeys(env, 'database/static-roles')).filter((k) => k.startsWith('t-dbstatic-')).length,
  },
  'mesh.ServiceDefaults': {
    weight: 50,
    build: (stack, i) => { new ServiceDefaults(stack, `svc${i}`, { name: `t-svc-${i}`, protocol: MeshProtocol.HTTP }); },
    count: async (env) => (await meshEntries(env, 'service-defaults')).filter((e) => e.Name.startsWith('t-svc-')).length,
  },
  'mesh.ServiceResolver': {
    weight: 20,
    build: (stack, i) => {
      new ServiceResolver(stack, `res${i}`, { name: `t-svc-${i}`, connectTimeout: '10s', subsets: { v1: { filter: 'Service.Meta.version == v1' } } });
    },
    count: async (env) => (await meshEntries(env, 'service-resolver')).filter((e) => e.Name.startsWith('t-svc-')).length,
  },
  'mesh.ServiceSplitter': {
    weight: 10,
    build: (stack, i) => {
      new ServiceSplitter(stack, `split${i}`, { name: `t-svc-${i}`, splits: [{ weight: 90, serviceSubset: 'v1' }, { weight: 10 }] });
    },
    count: async (env) => (await meshEntries(env, 'service-splitter')).filter((e) => e.Name.startsWith('t-svc-')).length,
  },
  'mesh.ServiceRouter': {
    weight: 5,
    // Routes /v1 of t-svc-i to its v1 subset (the resolver sample) and /old back to the service, rewritten.
    build: (stack, i) => {
      new ServiceRouter(stack, `router${i}`, {
        name: `t-svc-${i}`,
        routes: [
          { match: { http: { pathPrefix: '/v1' } }, destination: { serviceSubset: 'v1', requestTimeout: '30s' } },
          { match: { http: { pathPrefix: '/old' } }, destination: { service: `t-svc-${i}`, prefixRewrite: '/' } },
        ],
      });
    },
    count: async (env) => (await meshEntries(env, 'service-router')).filter((e) => e.Name.startsWith('t-svc-')).length,
  },
  'mesh.ServiceIntentions': {
    weight: 10,
    // The exact source first in the entry, `*` ranked after it: given in the other order here.
    build: (stack, i) => {
      new ServiceIntentions(stack, `intentions${i}`, {
        name: `t-svc-${i}`, sources: [{ name: '*', action: IntentionAction.DENY }, { name: `t-web-${i}`, action: IntentionAction.ALLOW }],
      });
    },
    count: async (env) => (await meshEntries(env, 'service-intentions')).filter((e) => e.Name.startsWith('t-svc-')).length,
  },
  'mesh.AclPolicy': {
    weight: 5,
    build: (stack, i) => { new AclPolicy(stack, `aclpol${i}`, { name: `t-pol-${i}`, rules: `service "t-svc-${i}" { policy = "read" }` }); },
    count: async (env) => ((await meshAcl(env, 'policies')) as { Name: string }[]).filter((p) => p.Name.startsWith('t-pol-')).length,
  },
  'mesh.AclRole': {
    weight: 3,
    build: (stack, i) => { new AclRole(stack, `aclrole${i}`, { name: `t-aclrole-${i}`, serviceIdentities: [{ serviceName: `t-svc-${i}` }] }); },
    count: async (env) => ((await meshAcl(env, 'roles')) as { Name: string }[]).filter((r) => r.Name.startsWith('t-aclrole-')).length,
  },
  'mesh.AclToken': {
    weight: 3,
    // Found again after a crash by its description: one per token.
    build: (stack, i) => { new AclToken(stack, `acltok${i}`, { description: `t-tok-${i}`, serviceIdentities: [{ serviceName: `t-svc-${i}` }] }); },
    count: async (env) => ((await meshAcl(env, 'tokens')) as { Description: string }[]).filter((t) => t.Description.startsWith('t-tok-')).length,
  },
  'mesh.ProxyDefaults': {
    weight: 1,
    max: 1,
    // `global` in the default namespace: one per mesh (the service-defaults samples set their own protocol).
    build: (stack) => { new ProxyDefaults(stack, 'proxy', { protocol: MeshProtocol.HTTP, config: { local_connect_timeout_ms: 1000 } }); },
    count: async (env) => (await meshEntries(env, 'proxy-defaults')).filter((e) => e.Name === 'global').length,
  },
};

/** One construct per stack and id: a sample that several others need is built once. */
function once<T>(stack: TerraformStack, id: string, make: () => T): T {
  return (stack.node.tryFindChild(id) as T | undefined) ?? make();
}

/** The i-th managed organization (the Organization sample; the OAuth client, agent pool and retention samples belong to it). */
function organization(stack: TerraformStack, i: number): Organization {
  return once(stack, `org${i}`, () => new Organization(stack, `org${i}`, { name: orgName(i), email: `o${i}@torture.io`, removalPolicy: RemovalPolicy.DESTROY }));
}

/** The i-th managed project (of the i-th organization). */
function project(stack: TerraformStack, i: number): Project {
  return once(stack, `prj${i}`, () => new Project(stack, `prj${i}`, { organization: organization(stack, i), name: `apps-${i}` }));
}

/** The i-th managed workspace, in the i-th project. */
function workspace(stack: TerraformStack, i: number): Workspace {
  return once(stack, `ws${i}`, () => new Workspace(stack, `ws${i}`, { organization: organization(stack, i), name: `ws-${i}`, project: project(stack, i), tags: ['torture'] }));
}

/** The i-th managed team (of the i-th organization). */
function team(stack: TerraformStack, i: number): Team {
  return once(stack, `team${i}`, () => new Team(stack, `team${i}`, { organization: organization(stack, i), name: `team-${i}`, organizationAccess: { readWorkspaces: true } }));
}

/** The i-th seeded no-code organization, looked up. */
function ncOrganization(stack: TerraformStack, i: number): IOrganization {
  return once(stack, `ncorg${i}`, () => Organization.fromName(stack, `ncorg${i}`, ncOrg(i)));
}

function noCodeModule(stack: TerraformStack, i: number): NoCodeModule {
  return once(stack, `nc${i}`, () => new NoCodeModule(stack, `nc${i}`, {
    organization: ncOrganization(stack, i), moduleName: 'bucket', moduleProvider: 'aws', variableOptions: [{ variableName: 'size', variableType: 'string', options: ['s', 'l'] }],
  }));
}

/** `host:port/database` of the PostgreSQL server the database samples use (given to `seedSampleWorld`). */
let postgresHost: string | undefined;

function databaseConnection(stack: TerraformStack, i: number): DatabaseConnection {
  if (!postgresHost) throw new Error('the database samples need a PostgreSQL server: seedSampleWorld(env, scale, postgresUrl) first');
  return once(stack, `db${i}`, () => new DatabaseConnection(stack, `db${i}`, {
    name: `t-db-${i}`, connectionUrl: `postgresql://{{username}}:{{password}}@${postgresHost}`, username: `t_root_${i}`,
    password: SecretValue.fromEnv('PLANTED_ENGINE_SECRET'), allowedRoles: [`t-dbrole-${i}`, `t-dbstatic-${i}`, `t-dbrole-${i}`],
  }));
}

function authBackend(stack: TerraformStack, i: number): AuthBackend {
  return once(stack, `auth${i}`, () => new AuthBackend(stack, `auth${i}`, { path: `t-auth-${i}`, type: 'approle', description: `sample ${i}` }));
}

function directoryConfig(stack: TerraformStack, i: number): DirectoryConfig {
  return once(stack, `dircfg${i}`, () => new DirectoryConfig(stack, `dircfg${i}`, {
    mount: `t-dir-${i}`, binddn: BINDDN, bindpass: SecretValue.fromEnv('PLANTED_ENGINE_SECRET'), ttl: '24h', maxTtl: '48h',
  }));
}

/** Project ids of the seeded no-code organizations, by i (known once `seedSampleWorld` ran, before synth). */
const ncProjects: string[] = [];

/** Emulator options the samples need: their own mounts (singletons per mount) and the self-hosted edition (data retention). */
export function sampleEmulatorArgs(scale = 1): string[] {
  const n = (kind: string) => Math.max(1, Math.round(KIND_SAMPLES[kind].weight * scale));
  return [
    '--platform-edition', 'self-hosted',
    ...range(n('secrets.KvEngineConfig')).flatMap((i) => ['--mount', `kv:t-kv-${i}`]),
    ...range(n('secrets.PlatformTokenConfig')).flatMap((i) => ['--mount', `platform:t-ptok-${i}`]),
    ...range(n('secrets.MeshTokenConfig')).flatMap((i) => ['--mount', `mesh:t-mtok-${i}`]),
    ...range(Math.max(n('secrets.DirectoryConfig'), n('secrets.DirectoryRole'), n('secrets.DirectoryLibrarySet'))).flatMap((i) => ['--mount', `directory:t-dir-${i}`]),
  ];
}

async function send(url: string, method: string, headers: Record<string, string>, body: unknown): Promise<any> {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (!res.ok && res.status !== 422) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  const text = await res.text();
  return text ? JSON.parse(text) : {};
}

/**
 * Seeds what the samples need and converge does not manage: the no-code organizations (a registry
 * module with versions and a project each), the accounts of the simulated directories and the users
 * of a real PostgreSQL server (test/support/postgres.ts). Call it before synthesizing (the no-code
 * workspaces name their seeded project, the database connections the server).
 */
export async function seedSampleWorld(env: ApiEnv, scale = 1, postgresUrl?: string): Promise<void> {
  if (postgresUrl) await seedPostgres(postgresUrl, Math.max(1, Math.round(KIND_SAMPLES['secrets.DatabaseConnection'].weight * scale)));
  const p = { authorization: `Bearer ${env.PLATFORM_TOKEN}` };
  const n = (kind: string) => Math.max(1, Math.round(KIND_SAMPLES[kind].weight * scale));
  for (const i of range(Math.max(n('platform.NoCodeModule'), n('platform.NoCodeWorkspace')))) {
    const org = ncOrg(i);
    await send(`${env.PLATFORM_ADDRESS}/api/v2/organizations`, 'POST', { ...p, 'content-type': 'application/vnd.api+json' },
      { data: { type: 'organizations', attributes: { name: org, email: `${org}@torture.io` } } });
    await send(`${env.PLATFORM_ADDRESS}/__admin/organizations/${org}/registry-modules`, 'POST', p, { name: 'bucket', provider: 'aws', versions: ['1.0.0', '1.1.0'] });
    ncProjects[i] = (await send(`${env.PLATFORM_ADDRESS}/__admin/organizations/${org}/projects`, 'POST', p, { name: 'apps' })).id;
  }
  await send(`${env.PLATFORM_ADDRESS}/__admin/settings`, 'PATCH', p, { upgradeStepMs: 20 });
  const s = { 'x-secrets-token': env.SECRETS_TOKEN };
  for (const i of range(n('secrets.DirectoryConfig'))) {
    const admin = `${env.SECRETS_ADDR}/__admin/directory/t-dir-${i}/accounts`;
    await send(`${admin}/${BINDDN}`, 'POST', s, { password: PLANTED.engineSecret });
    for (const a of ['svc-role', 'svc-lib-a', 'svc-lib-b']) await send(`${admin}/${a}`, 'POST', s, {});
  }
}

/** The database users the samples need: a root per connection (its password planted) and a static user. */
async function seedPostgres(url: string, n: number): Promise<void> {
  const u = new URL(url);
  postgresHost = `${u.host}${u.pathname}`;
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    for (const i of range(n)) {
      await c.query(`CREATE ROLE t_root_${i} WITH LOGIN CREATEROLE PASSWORD '${PLANTED.engineSecret}'`);
      await c.query(`CREATE ROLE t_static_${i} WITH LOGIN PASSWORD 'static-${i}'; GRANT t_static_${i} TO t_root_${i} WITH ADMIN OPTION`);
    }
  } finally {
    await c.end();
  }
}

/** The number of objects of each sampled kind in a mixed stack of this scale. */
export function sampleCounts(scale = 1): Record<string, number> {
  return Object.fromEntries(Object.entries(KIND_SAMPLES).map(([k, s]) => [k, Math.min(s.max ?? Infinity, Math.max(1, Math.round(s.weight * scale)))]));
}

/** A mixed stack: every sampled kind, each in its weight times `scale` (at least one). */
export function buildMixedStack(stack: TerraformStack, scale = 1): void {
  for (const [kind, n] of Object.entries(sampleCounts(scale))) for (const i of range(n)) KIND_SAMPLES[kind].build(stack, i);
}

/** What is on the APIs of each sampled kind, to prove there is no duplicate and nothing missing. */
export async function countSamples(env: ApiEnv, scale = 1): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [kind, n] of Object.entries(sampleCounts(scale))) out[kind] = await KIND_SAMPLES[kind].count(env, n);
  return out;
}
