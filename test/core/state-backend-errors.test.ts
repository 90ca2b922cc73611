import { PostgresBackend } from '../../lib/core/state/postgres-backend';
import { Organization } from '../../lib/platform/organization/organization';
import { cliAsync, startWorld, synthApp } from '../support/harness';

// Errors of the PostgreSQL state backend say they come from the state backend (and where), never the password.
describe('PostgreSQL state backend errors', () => {
  const url = 'postgres://converge:pw-never-shown-4c2a@127.0.0.1:1/states';

  test('the backend prefixes its errors and keeps their code', async () => {
    const b = new PostgresBackend(url);
    const e = await b.read('prod').catch((x) => x);
    expect(e.message).toMatch(/^state backend \(postgres 127\.0\.0\.1:1\/states, table converge_state\): .*ECONNREFUSED/);
    expect(e.code).toBe('ECONNREFUSED');
    expect(e.message).not.toContain('pw-never-shown');
    await b.close();
  });

  test('through the CLI', async () => {
    const world = await startWorld({}, { CONVERGE_STATE: url });
    try {
      const dir = synthApp((stack) => { new Organization(stack, 'org', { name: 'pg-err', email: 'a@pg.io' }); });
      const r = await cliAsync(['plan', '--synth-dir', dir], world.env);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('state backend (postgres 127.0.0.1:1/states, table converge_state): ');
      expect(r.stderr).not.toContain('pw-never-shown');
    } finally {
      await world.stop();
    }
  });
});
