import { TerraformStack } from 'cdktf';
import * as secrets from '../../../lib/secrets';
import { cliAsync, startWorld, synthApp, TestWorld } from '../../support/harness';


// `DatabaseConnection.fromName` reads an existing connection at plan time, through the real CLI against
// the emulator: it feeds a role (its name and mount, and the order); an absent one fails the plan, naming
// the construct.
describe('DatabaseConnection.fromName', () => {
  let world: TestWorld;
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${world.env.SECRETS_ADDR}/v1/${path}`, {
      method, headers: { 'x-secrets-token': world.env.SECRETS_TOKEN!, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => world?.stop());

  test('an existing connection: read at plan time, used by a role, never changed nor deleted', async () => {
    // Made outside converge (not verified: no database is needed to write it).
    expect((await api('POST', 'database/config/outside', {
      plugin_name: 'postgresql-database-plugin', connection_url: 'postgresql://{{username}}:{{password}}@db:5432/app', verify_connection: false,
    })).status).toBe(204);
    const dir = synthApp((st: TerraformStack) => {
      const conn = secrets.DatabaseConnection.fromName(st, 'existing', 'database', 'outside');
      new secrets.DatabaseRole(st, 'role', { name: 'fed', connection: conn, creationStatements: ['SELECT 1'] });
    }, 'lookup');
    const apply = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(apply.stderr).toBe('');
    expect(apply.status).toBe(0);
    expect((await api('GET', 'database/roles/fed')).body.data.db_name).toBe('outside');
    const plan = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env);
    expect(plan.status).toBe(0);
    const destroy = await cliAsync(['destroy', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(destroy.status).toBe(0);
    expect((await api('GET', 'database/roles/fed')).status).toBe(404);
    expect((await api('GET', 'database/config/outside')).status).toBe(200);
  });

  test('an absent connection fails the plan, naming the construct path, and nothing is made', async () => {
    const dir = synthApp((st: TerraformStack) => {
      const conn = secrets.DatabaseConnection.fromName(st, 'missing', 'database', 'no-such-db');
      new secrets.DatabaseRole(st, 'orphan', { name: 'orphan', connection: conn, creationStatements: ['SELECT 1'] });
    }, 'absent');
    const plan = await cliAsync(['plan', '--synth-dir', dir], world.env);
    expect(plan.status).toBe(1);
    expect(plan.stderr).toMatch(/absent\/missing: secrets\.DatabaseConnection "database\/config\/no-such-db" does not exist/);
    const apply = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(apply.status).toBe(1);
    expect((await api('GET', 'database/roles/orphan')).status).toBe(404);
  });
});
