import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { CliResult, cliAsync, ROOT, tempDir, TestWorld } from '../support/harness';

export const FIXTURES = path.join(__dirname, 'fixtures', 'migrate');

/**
 * A cdktf app as a team has one, whose main.ts declares the stack `converge migrate terraform` writes
 * (imported.ts): cdk-converge is this checkout's source, as the examples use it.
 */
export function appDir(): string {
  const dir = tempDir('converge-migrate-app-');
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    extends: path.join(ROOT, 'tsconfig.json'),
    compilerOptions: { paths: { 'cdk-converge': [path.join(ROOT, 'lib', 'index.ts')] }, noUnusedLocals: true, types: ['node'] },
    include: ['*.ts'],
  }));
  fs.writeFileSync(path.join(dir, 'cdktf.json'), JSON.stringify({ language: 'typescript', app: 'npx tsx main.ts', output: 'cdktf.out' }));
  fs.writeFileSync(path.join(dir, 'main.ts'), [
    "import { App } from 'cdktf';",
    "import { ImportedStack } from './imported';",
    '',
    'const app = new App();',
    "new ImportedStack(app, 'imported');",
    'app.synth();',
    '',
  ].join('\n'));
  return dir;
}

/** Type-checks the app (the generated code included) as `tsc --noEmit` would in the team's repository. */
export function typeCheck(dir: string): { status: number | null; output: string } {
  const r = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'tsc'), ['--noEmit', '-p', path.join(dir, 'tsconfig.json')], { encoding: 'utf8', timeout: 300_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** The variables the migration printed: name -> the old state's resource address and attribute path. */
export function printedVariables(stdout: string): Map<string, { address: string; attribute: string }> {
  const out = new Map<string, { address: string; attribute: string }>();
  const start = stdout.indexOf('Set these');
  if (start < 0) return out;
  for (const line of stdout.slice(start).split('\n').slice(1)) {
    const m = /^ {2}([A-Z0-9_]+) +(\S+) +(\S+)$/.exec(line);
    if (!m) break;
    out.set(m[1], { address: m[2], attribute: m[3] });
  }
  return out;
}

/** Runs the CLI in the app directory. */
export function run(world: TestWorld, dir: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return cliAsync(args, { ...world.env, TMPDIR: process.env.TMPDIR, ...env }, dir);
}

/** Asserts that no secret value is in any file of the app or of converge's state, nor in any output. */
export function expectNoSecret(secretValues: readonly string[], dirs: readonly string[], outputs: readonly CliResult[]): void {
  expect(secretValues.length).toBeGreaterThan(0);
  const files = dirs.flatMap(filesUnder);
  expect(files.length).toBeGreaterThan(0);
  for (const v of secretValues) {
    for (const f of files) if (f.text.includes(v)) throw new Error(`secret value of the old state (${v.length} characters, starting ${v.slice(0, 3)}) found in ${f.file}`);
    for (const o of outputs) {
      if (o.stdout.includes(v) || o.stderr.includes(v)) throw new Error('secret value of the old state found in the output');
    }
  }
}

/** Every file under a directory, node_modules (a link to this checkout's) left out. */
function filesUnder(dir: string): { file: string; text: string }[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.name === 'node_modules' || e.isSymbolicLink()) return [];
    return e.isDirectory() ? filesUnder(p) : [{ file: p, text: fs.readFileSync(p, 'utf8') }];
  });
}

/** A request to an API below its root (`/v1/...`): throws unless 2xx. */
export type ApiCall = (method: string, p: string, body?: unknown) => Promise<void>;

interface StateResource { mode: string; type: string; name: string; instances: { attributes: Record<string, any> }[] }

/** The managed instances' attributes of a type, from a format-4 state document. */
export function attributesOf(state: { resources: StateResource[] }, type: string): Record<string, any>[] {
  return state.resources.filter((r) => r.mode === 'managed' && r.type === type).flatMap((r) => r.instances.map((i) => i.attributes));
}

/** What Terraform made on a secrets server (emulator or OpenBao), as the vault state records it: mounts, auth methods, policies, KV secrets, a connection, a role. */
export async function seedVault(state: { resources: StateResource[] }, api: ApiCall): Promise<void> {
  for (const a of attributesOf(state, 'vault_mount')) {
    const config = { description: a.description, default_lease_ttl: a.default_lease_ttl_seconds, max_lease_ttl: a.max_lease_ttl_seconds, options: a.options };
    // The server may have the mount already (a dev server's `secret/`): then it is tuned as Terraform left it.
    await api('POST', `/v1/sys/mounts/${a.path}`, { type: a.type, description: a.description, options: a.options,
      config: { default_lease_ttl: `${a.default_lease_ttl_seconds}s`, max_lease_ttl: `${a.max_lease_ttl_seconds}s` } })
      .catch(() => api('POST', `/v1/sys/mounts/${a.path}/tune`, config));
  }
  for (const a of attributesOf(state, 'vault_auth_backend')) {
    const tune = a.tune[0] ?? {};
    await api('POST', `/v1/sys/auth/${a.path}`, { type: a.type, description: a.description,
      config: { ...(tune.default_lease_ttl ? { default_lease_ttl: tune.default_lease_ttl } : {}), ...(tune.max_lease_ttl ? { max_lease_ttl: tune.max_lease_ttl } : {}) } });
  }
  for (const a of attributesOf(state, 'vault_approle_auth_backend_role')) {
    await api('POST', `/v1/auth/${a.backend}/role/${a.role_name}`, { token_policies: a.token_policies, token_ttl: a.token_ttl, token_max_ttl: a.token_max_ttl,
      secret_id_ttl: a.secret_id_ttl, bind_secret_id: a.bind_secret_id });
  }
  for (const a of attributesOf(state, 'vault_policy')) await api('PUT', `/v1/sys/policies/acl/${a.name}`, { policy: a.policy });
  for (const a of attributesOf(state, 'vault_kv_secret_v2')) {
    if (a.name === 'limits/rate') continue;
    await api('POST', `/v1/${a.mount}/data/${a.name}`, { data: JSON.parse(a.data_json) });
    const meta = a.custom_metadata[0];
    if (meta) {
      await api('POST', `/v1/${a.mount}/metadata/${a.name}`, {
        max_versions: meta.max_versions, cas_required: meta.cas_required, delete_version_after: `${meta.delete_version_after}s`, custom_metadata: meta.data,
      });
    }
  }
  for (const a of attributesOf(state, 'vault_database_secret_backend_connection')) {
    const pg = a.postgresql[0];
    await api('POST', `/v1/${a.backend}/config/${a.name}`, {
      plugin_name: a.plugin_name, connection_url: pg.connection_url, username: pg.username, password: pg.password,
      allowed_roles: a.allowed_roles, verify_connection: a.verify_connection,
    });
  }
  for (const a of attributesOf(state, 'vault_database_secret_backend_role')) {
    await api('POST', `/v1/${a.backend}/roles/${a.name}`, {
      db_name: a.db_name, creation_statements: a.creation_statements, revocation_statements: a.revocation_statements,
      default_ttl: a.default_ttl, max_ttl: a.max_ttl,
    });
  }
}

interface ShowResource { address: string; type: string; values: Record<string, any> }
interface ShowModule { resources?: ShowResource[]; child_modules?: ShowModule[] }

/** Every resource of a `terraform show -json` document, child modules included. */
export function showResources(doc: { values: { root_module: ShowModule } }): ShowResource[] {
  const out: ShowResource[] = [];
  const walk = (m: ShowModule) => { out.push(...m.resources ?? []); (m.child_modules ?? []).forEach(walk); };
  walk(doc.values.root_module);
  return out;
}

/** What Terraform made on a mesh server (emulator or Consul): its ACL policies, roles and tokens, and every entry of a kind converge serves, dependencies first. */
export async function seedConsul(resources: readonly ShowResource[], api: ApiCall): Promise<void> {
  for (const r of resources.filter((x) => x.type === 'consul_acl_policy')) {
    await api('PUT', '/v1/acl/policy', { Name: r.values.name, Description: r.values.description, Rules: r.values.rules, Datacenters: r.values.datacenters ?? [] });
  }
  for (const r of resources.filter((x) => x.type === 'consul_acl_role')) {
    const names = (r.values.policies as string[]).map((id) => resources.find((p) => p.type === 'consul_acl_policy' && p.values.id === id)!.values.name);
    await api('PUT', '/v1/acl/role', { Name: r.values.name, Description: r.values.description, Policies: names.map((Name) => ({ Name })),
      ServiceIdentities: r.values.service_identities.map((x: any) => ({ ServiceName: x.service_name, Datacenters: x.datacenters })) });
  }
  for (const r of resources.filter((x) => x.type === 'consul_acl_token')) {
    // The secret the state's `consul_acl_token_secret_id` data source read, so the server holds the same token.
    const secret = resources.find((x) => x.type === 'consul_acl_token_secret_id' && x.values.accessor_id === r.values.accessor_id)?.values.secret_id;
    await api('PUT', '/v1/acl/token', { AccessorID: r.values.accessor_id, ...(secret ? { SecretID: secret } : {}), Description: r.values.description,
      Policies: r.values.policies.map((Name: string) => ({ Name })), Roles: r.values.roles.map((Name: string) => ({ Name })), Local: r.values.local,
      ServiceIdentities: r.values.service_identities.map((x: any) => ({ ServiceName: x.service_name, Datacenters: x.datacenters })),
      NodeIdentities: r.values.node_identities.map((x: any) => ({ NodeName: x.node_name, Datacenter: x.datacenter })) });
  }
  const entries = resources.filter((r) => r.type === 'consul_config_entry');
  for (const kind of ['proxy-defaults', 'service-defaults', 'service-resolver', 'service-splitter', 'service-router', 'service-intentions']) {
    for (const r of entries.filter((e) => e.values.kind === kind)) {
      await api('PUT', '/v1/config', { Kind: r.values.kind, Name: r.values.name, ...JSON.parse(r.values.config_json) });
    }
  }
}

/** An ApiCall with a token in a header. */
export function apiCall(address: string, header: string, token: string): ApiCall {
  return async (method, p, body) => {
    const r = await fetch(`${address}${p}`, {
      method, headers: { [header]: token, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${await r.text()}`);
  };
}
