import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { startWorld, TestWorld } from '../support/harness';
import { appDir, expectNoSecret, FIXTURES, run, showResources, typeCheck } from './migrate-support';

jest.setTimeout(600_000);

describe('converge import --generate ADDRESS ID', () => {
  let world: TestWorld;
  const password = 'Gen-kv-password-6d5c4b3a29';
  beforeAll(async () => {
    world = await startWorld();
    const kv = (p: string, body: unknown) => fetch(`${world.env.SECRETS_ADDR}/v1/secret/${p}`, {
      method: 'POST', headers: { 'x-secrets-token': world.env.SECRETS_TOKEN!, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    expect((await kv('data/app/db', { data: { user: 'app', password } })).status).toBe(200);
    expect((await kv('metadata/app/db', { custom_metadata: { owner: 'team-a' }, max_versions: 4 })).status).toBe(204);
    const entry = await fetch(`${world.env.MESH_HTTP_ADDR}/v1/config`, {
      method: 'PUT', headers: { 'x-mesh-token': world.env.MESH_HTTP_TOKEN!, 'content-type': 'application/json' },
      body: JSON.stringify({ Kind: 'service-resolver', Name: 'api', ConnectTimeout: '4s', Subsets: { v1: { Filter: 'Service.Meta.version == v1' } } }),
    });
    expect(entry.status).toBe(200);
  });
  afterAll(async () => { await world?.stop(); });

  test('prints code that compiles, with the secret from the environment; imported with it, the plan is a no-op', async () => {
    const dir = appDir();
    const kv = await run(world, dir, ['import', '--generate', 'secrets.KvSecret.app-db', 'secret/app/db']);
    expect(kv.stderr).toBe('');
    expect(kv.status).toBe(0);
    expect(kv.stdout).toContain("new secrets.KvSecret(this, 'app-db', {");
    expect(kv.stdout).toContain("password: SecretValue.fromEnv('APP_DB_DATA_PASSWORD'),");
    expect(kv.stdout).toContain('customMetadata: {\n        owner: \'team-a\',\n      },\n      maxVersions: 4,');
    expect(kv.stdout).toContain('Set APP_DB_DATA_USER, APP_DB_DATA_PASSWORD to the secret value(s) (the server\'s are not printed), then: converge import app-db secret/app/db');
    const resolver = await run(world, dir, ['import', '--generate', 'mesh.ServiceResolver.api', 'service-resolver/api']);
    expect(resolver.status).toBe(0);
    expect(resolver.stdout).toContain("connectTimeout: '4s',");

    // The code of both objects, as a team pastes it into its stack.
    const body = (text: string) => text.slice(text.indexOf('    new '), text.indexOf('  }\n}'));
    const code = kv.stdout.slice(0, kv.stdout.indexOf('  }\n}')).replace("import { secrets, SecretValue } from 'cdk-converge';",
      "import { mesh, secrets, SecretValue } from 'cdk-converge';") + body(resolver.stdout) + '  }\n}\n';
    fs.writeFileSync(path.join(dir, 'imported.ts'), code);
    expect(typeCheck(dir)).toEqual({ status: 0, output: '' });
    const env = { APP_DB_DATA_USER: 'app', APP_DB_DATA_PASSWORD: password };
    const imp = await run(world, dir, ['import', 'app-db', 'secret/app/db'], env);
    expect(imp.status).toBe(0);
    expect((await run(world, dir, ['import', 'api', 'service-resolver/api'], env)).status).toBe(0);
    const plan = await run(world, dir, ['plan', '--detailed-exitcode'], env);
    expect(plan.stderr).toBe('');
    expect(plan.status).toBe(0);
    expectNoSecret([password], [dir, world.dir], [kv, resolver, imp, plan]);
  });
});

describe('converge migrate terraform --language python', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world?.stop(); });

  test.each(['vault.tfstate', 'tfe.tfstate', 'consul.show.json'])('%s: a Python stack that compiles, secrets read with SecretValue.from_env', async (file) => {
    const dir = appDir();
    const r = await run(world, dir, ['migrate', 'terraform', '--state', path.join(FIXTURES, file), '--language', 'python', '--out', 'stacks/imported.py', '--no-import']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const code = fs.readFileSync(path.join(dir, 'stacks', 'imported.py'), 'utf8');
    expect(code).toContain('class ImportedStack(TerraformStack):');
    const compiled = spawnSync('python3', ['-m', 'py_compile', path.join(dir, 'stacks', 'imported.py')], { encoding: 'utf8' });
    expect(compiled.stderr).toBe('');
    expect(compiled.status).toBe(0);
    const text = fs.readFileSync(path.join(FIXTURES, file), 'utf8');
    // Every value the old state marks sensitive (the test reads them from the fixture's own markers).
    const secrets = [...text.matchAll(/"(?:Kv|Db|Rnd|Acl|TfeVar)-[^"\\]+"|"(?:ghp_|glpat-)[^"\\]+"/g)].map((m) => m[0].slice(1, -1));
    // The consul state's one secret: an ACL token's SecretID, as its `consul_acl_token_secret_id` data source read it (a UUID).
    if (file === 'consul.show.json') secrets.push(showResources(JSON.parse(text)).find((x) => x.type === 'consul_acl_token_secret_id')!.values.secret_id);
    expect(secrets.length).toBeGreaterThan(0);
    if (file !== 'consul.show.json') expect(code).toMatch(/SecretValue\.from_env\("[A-Z0-9_]+"\)/);
    expectNoSecret(secrets, [dir], [r]);
  });
});
