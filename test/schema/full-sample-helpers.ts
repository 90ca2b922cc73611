/**
 * What several families' full samples (`full` in test/<domain>/<family>/<family>.samples.ts) share:
 * the seeded platform organization, the secrets service's admin calls and secret files.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TerraformStack } from 'cdktf';
import { IOrganization, Organization } from '../../lib/platform';
import { SampleWorld } from './full-samples';

/** The organization the OAuth client and no-code samples live in: seeded, with a project and two registry modules. */
export const SEEDED = 'full-platform';

/** The seeded project's id, known once seeded (before the app is synthesized). */
export let projectId = 'prj-unseeded';

/** What the OAuth client's write-only fields read (never written into the app). */
export const ENV = { FULL_SAMPLE_SECRET: 'full-sample-secret-5d1c' };

export async function send(world: SampleWorld, path: string, method: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const res = await fetch(`${world.env.PLATFORM_ADDRESS}${path}`, {
    method, headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body),
  });
  if (!res.ok && res.status !== 422) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json().catch(() => ({}));
}

/** Seeds the organization, its project and its registry modules once per world. */
export const seeded = new WeakMap<object, Promise<void>>();

export function seed(world: SampleWorld): Promise<void> {
  if (!seeded.has(world)) {
    seeded.set(world, (async () => {
      await send(world, '/api/v2/organizations', 'POST', { data: { type: 'organizations', attributes: { name: SEEDED, email: 'full@acme.io' } } },
        { 'content-type': 'application/vnd.api+json' });
      projectId = (await send(world, `/__admin/organizations/${SEEDED}/projects`, 'POST', { name: 'full' })).id;
      for (const name of ['options', 'bucket']) {
        await send(world, `/__admin/organizations/${SEEDED}/registry-modules`, 'POST', { name, provider: 'aws', versions: ['1.0.0', '1.1.0'] });
      }
    })());
  }
  return seeded.get(world)!;
}

export function seededOrganization(stack: TerraformStack): IOrganization {
  return (stack.node.tryFindChild('full-platform-org') as IOrganization | undefined) ?? Organization.fromName(stack, 'full-platform-org', SEEDED);
}

/** The root and bind passwords, given to the CLI in files (they are secrets: never in the app). */
export const SECRETS_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'converge-full-db-'));

/** The CLI reads secret files only in the app directory and the directories it is given (docs/security.md). */
export const SECRET_FILES_ENV = { CONVERGE_SECRET_FILE_DIR: SECRETS_DIR };

export async function admin(world: SampleWorld, method: string, p: string, body: unknown): Promise<void> {
  const r = await fetch(`${world.env.SECRETS_ADDR}/__admin/${p}`, {
    method, headers: { 'x-secrets-token': world.env.SECRETS_TOKEN, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${method} /__admin/${p}: ${r.status} ${await r.text()}`);
}

/**
 * The round trip's emulator mounts each engine at its default path only (another mount takes an
 * admin call outside the app): a mount other than the default is covered by kv-secret-lookup.e2e
 * (a KV engine at `kv/team`) and the engine e2e tests.
 */
export const DEFAULT_MOUNT = 'the emulator of the round trip mounts the engine at its default path only (kv-secret-lookup.e2e covers another mount)';

export const TOKENS_DEFAULT_MOUNT = 'the round-trip world mounts each engine at its default path only (engine-handlers tests other mounts)';
