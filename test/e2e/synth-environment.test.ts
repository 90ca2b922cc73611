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
