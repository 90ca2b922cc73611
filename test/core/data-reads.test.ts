import { DataSourceHandler } from '../../lib/core/engine/handler';
import { plainOutputs, readDifference, readDigest } from '../../lib/core/engine/data-reads';
import { OtherStacks } from '../../lib/core/engine/other-stacks';
import { isUnknown } from '../../lib/core/engine/resolve-spec';
import { StackPlan } from '../../lib/core/engine/plan-model';
import { agentsHandler } from '../../lib/platform/agent-pool/agents.handler';
import { databaseStaticCredentialsHandler } from '../../lib/secrets/database/database-static-credentials.handler';
import { platformTokenCredentialsHandler } from '../../lib/secrets/platform-token/platform-token-credentials.handler';

process.env.CONVERGE_STATE_KEY = '1d4afacf2d7e7574c8cd2c23ba7987bfc83e9087a65f80149854a5d020564d9b';

// Issue 22 §1: what a saved plan keeps of a data source's read, and how the apply compares its own read.
describe('a data source read kept in a plan', () => {
  const kept = (h: DataSourceHandler, outputs: Record<string, unknown>) =>
    ({ outputs: plainOutputs(outputs, h.sensitiveOutputs ?? []), readDigest: readDigest(h, outputs) });

  test('the same read is no difference; a plain output that moved is named; a secret that moved is named only as such', () => {
    const h: DataSourceHandler = { kind: 'test.Read', api: 'secrets', sensitiveOutputs: ['data'], read: async () => ({}) };
    const plan = { version: 2, data: { pw: 'one' } };
    expect(readDifference(h, kept(h, plan), { version: 2, data: { pw: 'one' } })).toEqual([]);
    expect(readDifference(h, kept(h, plan), { version: 3, data: { pw: 'one' } })).toEqual(['version']);
    expect(readDifference(h, kept(h, plan), { version: 2, data: { pw: 'two' } })).toEqual(['sensitive values']);
    // The plan keeps no secret: only the plain outputs and a digest.
    expect(JSON.stringify(kept(h, plan))).not.toContain('one');
  });

  test('what changes with time alone is no difference: a static credential\'s ttl, an agent\'s ping, when a stored token was read', () => {
    const creds = { username: 'u', password: 'p', lastServiceRotation: 't0', rotationPeriod: 3600, ttl: 3000 };
    const h = databaseStaticCredentialsHandler;
    expect(readDifference(h, kept(h, creds), { ...creds, ttl: 2990 })).toEqual([]);
    expect(readDifference(h, kept(h, creds), { ...creds, password: 'rotated', lastServiceRotation: 't1', ttl: 3600 })).toEqual(['lastServiceRotation']);
    const agents = (ping: string, status = 'idle') => ({ agents: [{ id: 'agent-1', name: 'a', status, ipAddress: '10.0.0.1', lastPingAt: ping }], ids: ['agent-1'], count: 1 });
    expect(readDifference(agentsHandler, kept(agentsHandler, agents('t0')), agents('t1'))).toEqual([]);
    expect(readDifference(agentsHandler, kept(agentsHandler, agents('t0')), agents('t1', 'busy'))).toEqual(['agents']);
    const token = (at: string) => ({ token: 'tok', leaseId: '', leaseDuration: 0, leaseRenewable: false, leaseStartTime: at, leaseExpiresAt: '' });
    const t = platformTokenCredentialsHandler;
    expect(readDifference(t, kept(t, token('2026-01-01T00:00:00Z')), token('2026-01-01T00:00:05Z'))).toEqual([]);
  });

  test('a producer\'s data source issued again (a renewed credential) or reading other values than state is known after apply in its consumers', () => {
    const plan = (item: Record<string, unknown>): StackPlan => ({ stack: 'p', lineage: 'l', serial: 1, notes: [], desired: { version: 1, stack: 'p', resources: {} },
      items: [{ address: 'creds', kind: 'secrets.MeshTokenCredentials', action: 'read', changes: [], drift: [], warnings: [], dataSource: true, ...item }] });
    const other = new OtherStacks();
    other.planned(plan({ issues: true }));
    expect(isUnknown(other.lookup('p', 'creds', 'token'))).toBe(true);
    other.planned(plan({ stateChanges: ['outputs read by other stacks'] }));
    expect(isUnknown(other.lookup('p', 'creds', 'token'))).toBe(true);
  });
});
