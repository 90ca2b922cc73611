import { TerraformStack } from 'cdktf';
import { Client } from 'pg';
import { ApiEnv, BINDDN, KindSample, ncOrg, ncProjects, range, setPostgresHost } from './sample-world';
import { samplesOf } from './samples';

export type { ApiEnv, KindSample } from './sample-world';

/**
 * The mixed stack of the reliability tests (crash torture, refresh after apply, request budget): every
 * kind's `sample`, collected from the families' samples files (test/support/samples.ts).
 */
export const KIND_SAMPLES: Record<string, KindSample> = samplesOf('sample');

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
  setPostgresHost(`${u.host}${u.pathname}`);
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
