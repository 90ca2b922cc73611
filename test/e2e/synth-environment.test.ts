import * as fs from 'fs';
import * as path from 'path';
import { cliAsync, ROOT, startWorld, tempDir, TestWorld } from '../support/harness';

// Issue 13 §4: the app (a pull request's own code in CI) runs without API tokens, the state key or the
// state backend's URL; a secret sealed in the app still reaches the API, sealed under the state key.
describe('the app runs without tokens or the state key', () => {
  let world: TestWorld;
  let dir: string;
  beforeAll(async () => {
    world = await startWorld();
    dir = tempDir('converge-app-env-');
    fs.writeFileSync(path.join(dir, 'cdktf.json'), JSON.stringify({ app: `node ${JSON.stringify(path.join(dir, 'main.js'))}` }));
    fs.writeFileSync(path.join(dir, 'main.js'), `
const fs = require('fs');
const { App, TerraformStack } = require(${JSON.stringify(path.join(ROOT, 'node_modules', 'cdktf'))});
const { secrets, SecretValue } = require(${JSON.stringify(ROOT)});
// What the app could read of the environment, written where the test looks.
const seen = Object.keys(process.env).filter((k) => /TOKEN|STATE_KEY|^CONVERGE_STATE$/.test(k));
fs.writeFileSync(${JSON.stringify(path.join(dir, 'seen.json'))}, JSON.stringify(seen));
const app = new App();
const stack = new TerraformStack(app, 'envcheck');
new secrets.KvSecret(stack, 'kv', { path: 'envcheck/a', data: { sealed: SecretValue.unsafePlainText('sealed-in-app-5e6f') } });
app.synth();
`);
  });
  afterAll(async () => { await world.stop(); fs.rmSync(dir, { recursive: true, force: true }); });

  test('no token, state key or state URL is in the environment of the app; the sealed secret is applied', async () => {
    const r = await cliAsync(['apply', '--auto-approve'], { ...world.env, EXTRA_TOKEN: 'x' }, dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'seen.json'), 'utf8'))).toEqual([]);
    const got = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/envcheck/a`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    expect(((await got.json()) as { data: { data: unknown } }).data.data).toEqual({ sealed: 'sealed-in-app-5e6f' });
    const plan = await cliAsync(['plan', '--detailed-exitcode'], world.env, dir);
    expect(plan.status).toBe(0);
  });
});

// Issue 23 §3: the app gets an allow-list of the environment: no PGPASSWORD, no value a
// SecretValue.fromEnv names (the app renders only the name), nothing unknown unless named.
describe('the app runs with an allow-listed environment', () => {
  let world: TestWorld;
  let dir: string;
  beforeAll(async () => {
    world = await startWorld();
    dir = tempDir('converge-app-allow-');
    fs.writeFileSync(path.join(dir, 'cdktf.json'), JSON.stringify({ app: `node ${JSON.stringify(path.join(dir, 'main.js'))}` }));
    fs.writeFileSync(path.join(dir, 'main.js'), `
const fs = require('fs');
const { App, TerraformStack } = require(${JSON.stringify(path.join(ROOT, 'node_modules', 'cdktf'))});
const { secrets, SecretValue } = require(${JSON.stringify(ROOT)});
fs.writeFileSync(${JSON.stringify(path.join(dir, 'env.json'))}, JSON.stringify(process.env));
const app = new App();
const stack = new TerraformStack(app, 'allow');
new secrets.KvSecret(stack, 'kv', { path: 'allow/a', data: { password: SecretValue.fromEnv('DB_PASSWORD') } });
app.synth();
`);
  });
  afterAll(async () => { await world.stop(); fs.rmSync(dir, { recursive: true, force: true }); });

  const secretsOfTheRun = { PGPASSWORD: 'pg-pass-1a2b', DB_PASSWORD: 'db-pass-3c4d', STAGE: 'prod', LC_ALL: 'C.UTF-8' };
  const seen = (): Record<string, string> => JSON.parse(fs.readFileSync(path.join(dir, 'env.json'), 'utf8'));

  test('no PGPASSWORD, no SecretValue.fromEnv value, no state key; the secret still reaches the API', async () => {
    const r = await cliAsync(['apply', '--auto-approve'], { ...world.env, ...secretsOfTheRun }, dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const env = seen();
    for (const k of ['PGPASSWORD', 'DB_PASSWORD', 'STAGE', 'CONVERGE_STATE_KEY', 'CONVERGE_DIR', 'SECRETS_ADDR']) expect(env[k]).toBeUndefined();
    expect(Object.values(env)).not.toContain(secretsOfTheRun.PGPASSWORD);
    expect(Object.values(env)).not.toContain(secretsOfTheRun.DB_PASSWORD);
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.LC_ALL).toBe('C.UTF-8');
    const got = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/allow/a`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    expect(((await got.json()) as { data: { data: unknown } }).data.data).toEqual({ password: 'db-pass-3c4d' });
  });

  test('--synth-env and CONVERGE_SYNTH_ENV pass more; the state key is refused even when named', async () => {
    let r = await cliAsync(['plan', '--synth-env', 'STAGE'], { ...world.env, ...secretsOfTheRun }, dir);
    expect(r.status).toBe(0);
    expect(seen().STAGE).toBe('prod');
    expect(seen().DB_PASSWORD).toBeUndefined();
    r = await cliAsync(['plan'], { ...world.env, ...secretsOfTheRun, CONVERGE_SYNTH_ENV: 'STAGE, DB_PASSWORD' }, dir);
    expect(r.status).toBe(0);
    expect(seen().STAGE).toBe('prod');
    expect(seen().DB_PASSWORD).toBe('db-pass-3c4d');
    r = await cliAsync(['plan', '--synth-env', 'CONVERGE_STATE_KEY'], { ...world.env }, dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/CONVERGE_STATE_KEY is never passed to the app/);
  });
});
