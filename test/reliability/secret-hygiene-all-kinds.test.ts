import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { TerraformStack } from 'cdktf';
import { SecretValue } from '../../lib/core/constructs/secret-value';
import { Organization } from '../../lib/platform/organization/organization';
import { DatabaseConnection } from '../../lib/secrets/database/database-connection';
import { allFiles, cliAsync, ROOT, startWorld, synthApp, TestWorld } from '../support/harness';
import { startPostgres, TestPostgres } from '../support/postgres';
import { allKinds, exportedConstructClasses, KIND_PROPS } from './kind-props';

// Secret hygiene across every kind: distinct values planted in every sensitive input of every kind
// (the SecretValue props the jsii manifest lists), through synth, plan, apply, refresh, output, import, a
// failing apply and the debug log level: none appears in any file converge wrote or anything it printed.
jest.setTimeout(300_000);

/** Sensitive (SecretValue) properties by kind, from the jsii manifest, through nested structs. */
function sensitiveProps(): Map<string, Set<string>> {
  const file = path.join(ROOT, '.jsii');
  if (!fs.existsSync(file)) throw new Error('.jsii is missing: run `npm run build` first');
  const types = JSON.parse(fs.readFileSync(file, 'utf8')).types as Record<string, any>;
  const fqnsIn = (t: any): string[] => (t?.fqn ? [t.fqn] : t?.collection ? fqnsIn(t.collection.elementtype) : t?.union ? t.union.types.flatMap(fqnsIn) : []);
  const collect = (fqn: string, into: Set<string>, seen: Set<string>) => {
    const ty = types[fqn];
    if (!ty || seen.has(fqn) || ty.kind !== 'interface') return;
    seen.add(fqn);
    for (const p of ty.properties ?? []) {
      const refs = fqnsIn(p.type);
      if (refs.some((r) => r.endsWith('.SecretValue'))) into.add(p.name);
      for (const r of refs) collect(r, into, seen);
    }
  };
  const out = new Map<string, Set<string>>();
  for (const [fqn, ty] of Object.entries(types)) {
    if (ty.kind !== 'class' || !ty.initializer?.parameters?.[2]?.type?.fqn) continue;
    const kind = fqn.replace(/^cdk-converge\./, '');
    const names = new Set<string>();
    collect(ty.initializer.parameters[2].type.fqn, names, new Set());
    if (names.size) out.set(kind, names);
  }
  return out;
}

/** Values some APIs check the shape of (still distinct, so a leak is found). */
const base32 = (hex: string) => [...Buffer.from(hex, 'hex')].map((b) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[b % 32]).join('').padEnd(16, 'Q');
const SHAPES: Record<string, (r: string) => string> = {
  'secrets.TotpKey key': (r) => base32(r),
  'secrets.TotpKey url': (r) => `otpauth://totp/Acme:ops@acme.io?secret=${base32(r)}&issuer=Acme`,
};

function holdsSecret(v: unknown): boolean {
  if (SecretValue.isSecretValue(v)) return true;
  if (Array.isArray(v)) return v.some(holdsSecret);
  return !!v && typeof v === 'object' && Object.values(v).some(holdsSecret);
}

interface Planted { kind: string; props: Record<string, unknown>; keys: Set<string> }

/** Replaces every SecretValue in `props` with a distinct planted one (from the environment or sealed plain text). */
function plant(kind: string, props: Record<string, unknown>, values: Map<string, string>, env: Record<string, string>): Planted {
  const keys = new Set<string>();
  // `outer`: the props the value is under (a map prop such as KvSecret's `data` holds secrets by its own keys).
  const walk = (v: unknown, key: string, outer: string[] = []): unknown => {
    if (SecretValue.isSecretValue(v)) {
      keys.add(key);
      outer.forEach((k) => keys.add(k));
      const value = (SHAPES[`${kind} ${key}`] ?? ((r: string) => `planted-${kind.replace('.', '-')}-${key}-${r}`))(crypto.randomBytes(6).toString('hex'));
      const n = values.size;
      values.set(value, `${kind} ${key}`);
      // Half from the environment (resolved by the CLI), half sealed into the synth output.
      if (n % 2 === 0) {
        const variable = `PLANTED_SECRET_${n}`;
        env[variable] = value;
        return SecretValue.fromEnv(variable);
      }
      return SecretValue.unsafePlainText(value);
    }
    if (Array.isArray(v)) return v.map((x) => walk(x, key, outer));
    if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k, key ? [...outer, key] : outer)]));
    }
    return v;
  };
  return { kind, props: walk(props, '') as Record<string, unknown>, keys };
}

/** Kinds whose apply needs what the emulator alone does not have: they take part in synth, plan and the failing apply. */
const NOT_APPLIED: Record<string, string> = {
  'platform.NoCodeWorkspace': 'needs a no-code module and a project seeded through the admin interface',
  'platform.Variable': 'the table names a made-up workspace (ws-1); test/platform/workspace.e2e.test.ts applies a sensitive one and searches every file and print',
  'secrets.DatabaseConnection': 'the table\'s connection names a made-up server; a live one to a real PostgreSQL is applied instead (below)',
};

describe('secret hygiene across every kind', () => {
  let world: TestWorld;
  let pg: TestPostgres;
  /** The live database connection's root password: PostgreSQL's own, planted from the environment. */
  let pgUrl: URL;
  const values = new Map<string, string>();
  const env: Record<string, string> = {};
  const planted: Planted[] = [];
  const sensitive = sensitiveProps();
  const classes = exportedConstructClasses();

  beforeAll(async () => {
    for (const kind of allKinds()) {
      const entry = KIND_PROPS[kind];
      if (!entry) continue;
      // The required props plus the optional ones that hold a secret (the others may name objects that do not exist).
      const secretOptional = Object.fromEntries(Object.entries(entry.optional ?? {}).filter(([, v]) => holdsSecret(v)));
      for (const props of [{ ...entry.base, ...secretOptional }, ...(entry.secretVariants ?? [])]) {
        // Kinds whose sample holds a SecretValue.
        const p = plant(kind, props, values, env);
        if (p.keys.size) planted.push(p);
      }
    }
    pg = await startPostgres();
    pgUrl = new URL(pg.url);
    env.PLANTED_PG_PASSWORD = decodeURIComponent(pgUrl.password);
    values.set(env.PLANTED_PG_PASSWORD, 'secrets.DatabaseConnection password (live PostgreSQL)');
    // A second mesh-token mount for the variant with a client key.
    world = await startWorld({ secretsMounts: { 'mesh-tls': 'mesh' } }, env);
  });
  afterAll(async () => { await world?.stop(); await pg?.stop(); });

  test('every sensitive input of every kind gets a planted value', () => {
    expect(sensitive.size).toBeGreaterThan(3);
    const missing: string[] = [];
    for (const [kind, names] of sensitive) {
      if (!allKinds().includes(kind)) continue;
      const covered = new Set(planted.filter((p) => p.kind === kind).flatMap((p) => [...p.keys]));
      for (const n of names) if (!covered.has(n)) missing.push(`${kind}.${n}`);
    }
    expect(missing).toEqual([]);
  });

  test('no planted value in any file converge wrote or anything it printed', async () => {
    const build = (stack: TerraformStack, applied: boolean) => {
      new Organization(stack, 'acme', { name: 'acme', email: 'ops@acme.io' });
      new DatabaseConnection(stack, 'live-db', {
        name: 'live', connectionUrl: `postgresql://{{username}}:{{password}}@127.0.0.1:${pgUrl.port}/postgres`,
        username: 'postgres', password: SecretValue.fromEnv('PLANTED_PG_PASSWORD'),
      });
      planted.forEach((p, i) => {
        if (applied && NOT_APPLIED[p.kind]) return;
        const c = new (classes.get(p.kind)!)(stack, `k${i}`, p.props);
        if (p.kind.startsWith('platform.')) c.node.addDependency(stack.node.findChild('acme'));
      });
    };
    const good = synthApp((s) => build(s, true), 'hygiene');
    const all = synthApp((s) => build(s, false), 'hygiene');
    // Every planted SecretValue is a `$secret` leaf of the desired state (and KvSecret's data has some).
    const synthText = allFiles(all).map((f) => f.text).join('\n');
    expect((synthText.match(/"\$secret"/g) ?? []).length).toBeGreaterThanOrEqual(values.size);
    expect(planted.some((p) => p.kind === 'secrets.KvSecret')).toBe(true);

    const prints: string[] = [];
    const run = async (args: string[], expectStatus: number) => {
      const r = await cliAsync(args, world.env);
      prints.push(r.stdout, r.stderr);
      expect({ args, status: r.status, err: r.status === expectStatus ? '' : (r.stdout + r.stderr).slice(-3000) }).toEqual({ args, status: expectStatus, err: '' });
    };
    await run(['plan', '--synth-dir', good, '--out', path.join(world.dir, 'saved.plan')], 0);
    await run(['plan', '--synth-dir', good, '--json'], 0);
    await run(['apply', '--synth-dir', good, '--auto-approve', '--log-level', 'debug'], 0);
    await run(['plan', '--synth-dir', good, '--detailed-exitcode', '--log-level', 'debug'], 0);
    await run(['refresh', '--synth-dir', good], 0);
    await run(['output', '--stack', 'hygiene'], 0);
    await run(['output', '--stack', 'hygiene', '--json'], 0);
    for (const i of planted.map((p, j) => (NOT_APPLIED[p.kind] ? -1 : j)).filter((j) => j >= 0)) {
      await run(['state', 'show', `k${i}`, '--stack', 'hygiene'], 0);
    }
    await run(['state', 'show', 'live-db', '--stack', 'hygiene'], 0);
    // Import records what apply records (HMACs, never values): each applied object is forgotten and imported again.
    const stateFile = path.join(world.dir, '.converge', 'stacks', 'hygiene', 'state.json');
    const ids = JSON.parse(fs.readFileSync(stateFile, 'utf8')).resources as Record<string, { id: string; dataSource?: boolean }>;
    for (const [address, rec] of Object.entries(ids)) {
      if (rec.dataSource || address === 'acme') continue;
      await run(['state', 'rm', address, '--stack', 'hygiene'], 0);
      await run(['import', address, rec.id, '--synth-dir', good], 0);
      await run(['state', 'show', address, '--stack', 'hygiene'], 0);
    }
    await run(['plan', '--synth-dir', good, '--log-level', 'debug'], 0);
    // The live connection reached PostgreSQL with the planted password.
    const live = await fetch(`${world.env.SECRETS_ADDR}/v1/database/config/live`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    expect(live.status).toBe(200);
    // The kinds the emulator cannot apply alone make this apply fail, at debug level.
    await run(['plan', '--synth-dir', all, '--log-level', 'debug'], 0);
    await run(['apply', '--synth-dir', all, '--auto-approve', '--log-level', 'debug'], 1);

    const written = [...allFiles(good), ...allFiles(all), ...allFiles(world.dir)];
    expect(written.some((f) => f.file.endsWith('state.json'))).toBe(true);
    const found: string[] = [];
    for (const [value, where] of values) {
      if (prints.some((p) => p.includes(value))) found.push(`${where}: printed`);
      for (const f of written) if (f.text.includes(value)) found.push(`${where}: in ${path.relative(world.dir, f.file)}`);
    }
    // The figure docs/reliability.md reports: secrets found.
    console.log(`secret hygiene: ${values.size} planted values in ${new Set(planted.map((p) => p.kind)).size} kinds; found ${found.length}`);
    expect(found).toEqual([]);
  });
});
