import * as fs from 'fs';
import * as path from 'path';
import { SecretValue } from '../../lib';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// `converge show PLANFILE` (issue 34 item 4): a saved plan printed as plan printed it, as JSON too,
// without contacting any API; a plan file edited after it was saved is refused, as apply refuses it.
describe('converge show', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld({}, { SHOW_PW: 'pw-show-77a1' }); });
  afterAll(async () => { await world.stop(); });

  test('prints the saved plan offline, as text and as JSON, and refuses an edited one', async () => {
    const dir = synthApp((stack) => {
      new KvSecret(stack, 'db', { path: 'show/db', data: { user: 'app', password: SecretValue.fromEnv('SHOW_PW') } });
    }, 'show');
    const file = path.join(world.dir, 'show.plan');
    const plan = await cliAsync(['plan', '--synth-dir', dir, '--out', file], world.env);
    expect(plan.status).toBe(0);
    const json = await cliAsync(['plan', '--synth-dir', dir, '--json'], world.env);

    // No API: every address points at a closed port.
    const offline = { ...world.env, PLATFORM_ADDRESS: 'http://127.0.0.1:9', SECRETS_ADDR: 'http://127.0.0.1:9', MESH_HTTP_ADDR: 'http://127.0.0.1:9' };
    const shown = await cliAsync(['show', file], offline);
    expect(shown.stderr).toBe('');
    expect(shown.status).toBe(0);
    const planned = plan.stdout.split('\n').filter((l) => !l.startsWith('Saved the plan'));
    expect(shown.stdout.split('\n').slice(0, planned.length - 1)).toEqual(planned.slice(0, -1));
    expect(shown.stdout).toMatch(/\+ data\.password = \(sensitive\)/);
    expect(shown.stdout).toContain(`converge apply ${file}`);
    expect(shown.stdout).not.toContain('pw-show-77a1');

    const shownJson = await cliAsync(['show', file, '--json'], offline);
    expect(shownJson.status).toBe(0);
    // A stack with no state yet gets a new lineage on every open: the two plans differ only there.
    const strip = (doc: { stacks: { lineage: string }[] }) => doc.stacks.map(({ lineage: _, ...rest }) => rest);
    expect(strip(JSON.parse(shownJson.stdout))).toEqual(strip(JSON.parse(json.stdout)));

    const edited = JSON.parse(fs.readFileSync(file, 'utf8'));
    edited.plans[0].items[0].address = 'elsewhere';
    fs.writeFileSync(file, JSON.stringify(edited));
    const refused = await cliAsync(['show', file], offline);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/not authentic|edited|refused/i);
  });
});
