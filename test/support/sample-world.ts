/**
 * What the kinds' reliability samples (`sample` in test/<domain>/<family>/<family>.samples.ts) share:
 * the objects several families' samples hang on (the i-th organization, project, workspace), the
 * readers their `count`s use, and what `seedSampleWorld` (kind-samples.ts) seeds for them.
 */
import { TerraformStack } from 'cdktf';
import { RemovalPolicy } from '../../lib';
import { Organization, Project, Workspace } from '../../lib/platform';
import { AuthBackend } from '../../lib/secrets';

/** The emulator's addresses and tokens (`EmulatorProcess.env`, `Emulator.env`). */
export type ApiEnv = Record<string, string>;

/**
 * A sample object per resource kind, for the reliability tests (crash torture, refresh after
 * apply). Each kind's is the `sample` of its entry in its family's samples file (test/support/samples.ts);
 * test/e2e/torture.test.ts fails for a registered resource kind without one.
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

export const orgName = (i: number) => `t-org-${i}`;

/** Organizations seeded (not managed) for the no-code samples: a registry module and a project each. */
export const ncOrg = (i: number) => `t-nc-${i}`;

export const BINDDN = 'CN=converge,OU=svc,DC=example,DC=com';

export const range = (n: number) => [...Array(n).keys()];

export async function get(url: string, headers: Record<string, string>): Promise<any> {
  const res = await fetch(url, { headers });
  if (res.status === 404) return undefined;
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  const text = await res.text();
  return text ? JSON.parse(text) : {};
}

export const platformGet = (env: ApiEnv, path: string) => get(`${env.PLATFORM_ADDRESS}/api/v2${path}`, { authorization: `Bearer ${env.PLATFORM_TOKEN}` });

export const secretsGet = (env: ApiEnv, path: string) => get(`${env.SECRETS_ADDR}/v1/${path}`, { 'x-secrets-token': env.SECRETS_TOKEN });

export const secretsKeys = async (env: ApiEnv, path: string) => ((await secretsGet(env, `${path}?list=true`))?.data?.keys ?? []) as string[];

export const countWhere = async (n: number, exists: (i: number) => Promise<boolean>) => (await Promise.all(range(n).map(exists))).filter(Boolean).length;

/** One construct per stack and id: a sample that several others need is built once. */
export function once<T>(stack: TerraformStack, id: string, make: () => T): T {
  return (stack.node.tryFindChild(id) as T | undefined) ?? make();
}

/** The i-th managed organization (the Organization sample; the OAuth client, agent pool and retention samples belong to it). */
export function organization(stack: TerraformStack, i: number): Organization {
  return once(stack, `org${i}`, () => new Organization(stack, `org${i}`, { name: orgName(i), email: `o${i}@torture.io`, removalPolicy: RemovalPolicy.DESTROY }));
}

/** The i-th managed project (of the i-th organization). */
export function project(stack: TerraformStack, i: number): Project {
  return once(stack, `prj${i}`, () => new Project(stack, `prj${i}`, { organization: organization(stack, i), name: `apps-${i}` }));
}

/** The i-th managed workspace, in the i-th project. */
export function workspace(stack: TerraformStack, i: number): Workspace {
  return once(stack, `ws${i}`, () => new Workspace(stack, `ws${i}`, { organization: organization(stack, i), name: `ws-${i}`, project: project(stack, i), tags: ['torture'] }));
}

/** `host:port/database` of the PostgreSQL server the database samples use (given to `seedSampleWorld`). */
export let postgresHost: string | undefined;
export function setPostgresHost(host: string): void {
  postgresHost = host;
}

export function authBackend(stack: TerraformStack, i: number): AuthBackend {
  return once(stack, `auth${i}`, () => new AuthBackend(stack, `auth${i}`, { path: `t-auth-${i}`, type: 'approle', description: `sample ${i}` }));
}

/** Project ids of the seeded no-code organizations, by i (known once `seedSampleWorld` ran, before synth). */
export const ncProjects: string[] = [];
