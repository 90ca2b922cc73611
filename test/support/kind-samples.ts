import { TerraformStack } from 'cdktf';
import { RemovalPolicy, SecretValue } from '../../lib';
import { MeshProtocol } from '../../lib/mesh/mesh-types';
import { ServiceDefaults } from '../../lib/mesh/service-defaults';
import { ServiceResolver } from '../../lib/mesh/service-resolver';
import { ServiceSplitter } from '../../lib/mesh/service-splitter';
import { AgentPool } from '../../lib/platform/agent-pool';
import { OAuthClient, VcsServiceProvider } from '../../lib/platform/oauth-client';
import { Organization } from '../../lib/platform/organization';
import { KvSecret } from '../../lib/secrets/kv-secret';

/**
 * A sample object per resource kind, for the reliability tests (crash torture, faults, secret
 * hygiene). The registry test fails when a kind is registered without a sample or a reason to skip it.
 */
export interface KindSample {
  /** Adds the i-th object of this kind (and what it needs) to the stack. */
  readonly build: (stack: TerraformStack, i: number) => void;
  /** How many of this kind go into a mixed stack of ~200 objects. */
  readonly weight: number;
}

/** Secret values planted in samples; hygiene tests search for them. */
export const PLANTED = {
  oauthToken: 'planted-oauth-token-61f0aa',
  kvPassword: 'planted-kv-password-2be7d1',
};
process.env.PLANTED_OAUTH_TOKEN = PLANTED.oauthToken;
process.env.PLANTED_KV_PASSWORD = PLANTED.kvPassword;

const orgName = (i: number) => `t-org-${i}`;

export const KIND_SAMPLES: Record<string, KindSample> = {
  'platform.Organization': {
    weight: 10,
    build: (stack, i) => { new Organization(stack, `org${i}`, { name: orgName(i), email: `o${i}@torture.io`, removalPolicy: RemovalPolicy.DESTROY }); },
  },
  'platform.OAuthClient': {
    weight: 10,
    build: (stack, i) => {
      new OAuthClient(stack, `vcs${i}`, {
        organization: orgName(i), name: `vcs-${i}`, serviceProvider: VcsServiceProvider.PROVIDER_A, key: `key-${i}`,
        httpUrl: 'https://vcs.example.com', apiUrl: 'https://api.vcs.example.com', oauthToken: SecretValue.fromEnv('PLANTED_OAUTH_TOKEN'),
      });
    },
  },
  'platform.AgentPool': {
    weight: 10,
    build: (stack, i) => {
      new AgentPool(stack, `pool${i}`, { organization: orgName(i), name: `pool-${i}` });
    },
  },
  'secrets.KvSecret': {
    weight: 120,
    build: (stack, i) => {
      new KvSecret(stack, `kv${i}`, { path: `torture/s${i}`, data: { n: String(i), password: SecretValue.fromEnv('PLANTED_KV_PASSWORD') } });
    },
  },
  'mesh.ServiceDefaults': {
    weight: 50,
    build: (stack, i) => { new ServiceDefaults(stack, `svc${i}`, { name: `t-svc-${i}`, protocol: MeshProtocol.HTTP }); },
  },
  'mesh.ServiceResolver': {
    weight: 20,
    build: (stack, i) => {
      new ServiceResolver(stack, `res${i}`, { name: `t-svc-${i}`, connectTimeout: '10s', subsets: { v1: { filter: 'Service.Meta.version == v1' } } });
    },
  },
  'mesh.ServiceSplitter': {
    weight: 10,
    build: (stack, i) => {
      new ServiceSplitter(stack, `split${i}`, { name: `t-svc-${i}`, splits: [{ weight: 90, serviceSubset: 'v1' }, { weight: 10 }] });
    },
  },
};

/** Kinds without a sample, and why (they need a server the mixed stack does not have, or are configuration singletons). */
export const KINDS_WITHOUT_SAMPLE: Record<string, string> = {
  'mesh.ProxyDefaults': 'a singleton (`global`) per namespace: one per stack, covered by test/mesh/e2e.test.ts',
  'mesh.ServiceRouter': 'covered by test/mesh/e2e.test.ts; its routes need services of their own',
  'platform.DataRetentionPolicy': 'exists only on the self-hosted edition',
  'platform.NoCodeModule': 'needs registry modules seeded through the admin interface (test/platform)',
  'platform.NoCodeWorkspace': 'needs a no-code module and a project seeded through the admin interface (test/platform)',
  'secrets.KvEngineConfig': 'a singleton per mount',
  'secrets.TotpKey': 'not sampled yet (countObjects has no TOTP count); covered by test/secrets/engine-handlers.test.ts',
  'secrets.PlatformTokenConfig': 'a singleton per mount; covered by test/secrets/engine-handlers.test.ts',
  'secrets.PlatformTokenRole': 'not sampled yet (countObjects has no platform-token count); covered by test/secrets/engine-handlers.test.ts',
  'secrets.MeshTokenConfig': 'a singleton per mount; covered by test/secrets/engine-handlers.test.ts',
  'secrets.MeshTokenRole': 'not sampled yet (countObjects has no mesh-token count); covered by test/secrets/engine-handlers.test.ts',
  'secrets.PushMfaMethod': 'not sampled yet (countObjects has no push-MFA count); covered by test/secrets/engine-handlers.test.ts',
  'secrets.DatabaseConnection': 'needs a PostgreSQL server; covered by test/secrets/database-handlers.test.ts',
  'secrets.DatabaseRole': 'needs a DatabaseConnection (a PostgreSQL server); covered by test/secrets/database-handlers.test.ts',
  'secrets.DatabaseStaticRole': 'needs a PostgreSQL server and its user; covered by test/secrets/database-handlers.test.ts',
  'secrets.DirectoryConfig': 'a singleton per mount; covered by test/secrets/directory-handlers.test.ts',
  'secrets.DirectoryRole': 'needs accounts seeded in the simulated directory (admin interface); covered by test/secrets/directory-handlers.test.ts',
  'secrets.DirectoryLibrarySet': 'needs accounts seeded in the simulated directory (admin interface); covered by test/secrets/directory-handlers.test.ts',
};

/** A mixed stack: every sampled kind, each in its weight (samples that need an organization get one each). */
export function buildMixedStack(stack: TerraformStack, scale = 1): void {
  const orgs = Math.round(KIND_SAMPLES['platform.Organization'].weight * scale);
  for (const [kind, sample] of Object.entries(KIND_SAMPLES)) {
    const n = kind.startsWith('platform.') ? orgs : Math.round(sample.weight * scale);
    for (let i = 0; i < n; i++) sample.build(stack, i);
  }
}
