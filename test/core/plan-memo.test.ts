import * as crypto from 'crypto';
import { Observed } from '../../lib/core/engine/handler';
import { PlanItem } from '../../lib/core/engine/plan-model';
import { PlanMemo } from '../../lib/core/engine/plan-memo';
import { UNKNOWN } from '../../lib/core/engine/resolve-spec';
import { DesiredResource } from '../../lib/core/model';
import { StateRecord } from '../../lib/core/state/state-model';

process.env.CONVERGE_STATE_KEY ??= crypto.randomBytes(32).toString('hex');

// What a watcher keeps between plans: a hit only where a diff would give the same item.

const resource = (spec: Record<string, unknown>): DesiredResource => ({
  kind: 'secrets.KvSecret', spec, provider: { api: 'secrets', addressEnv: 'SECRETS_ADDR', tokenEnv: 'SECRETS_TOKEN' }, dependsOn: [], removalPolicy: 'destroy', path: 's/kv',
});
const record = (mac: string): StateRecord => ({
  kind: 'secrets.KvSecret', status: 'created', id: 'secret/a', spec: {}, hmacs: {}, outputs: {}, dependsOn: [], removalPolicy: 'destroy',
  provider: { api: 'secrets', addressEnv: 'SECRETS_ADDR', tokenEnv: 'SECRETS_TOKEN' }, mac,
});
const noop = (address: string): PlanItem => ({ address, kind: 'secrets.KvSecret', action: 'noop', changes: [], drift: [], warnings: [] });

describe('PlanMemo', () => {
  test('a spec is resolved again when it reads a reference or a secret, or when the app was read again', () => {
    const memo = new PlanMemo();
    const plain = resource({ path: 'a', data: { colour: 'blue' } });
    const once = memo.resolve('kv', plain, () => UNKNOWN, 'salt');
    expect(memo.resolve('kv', plain, () => UNKNOWN, 'salt')).toBe(once);
    expect(memo.resolve('kv', plain, () => UNKNOWN, 'other salt')).not.toBe(once);
    expect(memo.resolve('kv', resource({ path: 'a', data: { colour: 'blue' } }), () => UNKNOWN, 'other salt')).not.toBe(once);

    process.env.PLAN_MEMO_SECRET = 'first';
    const secret = resource({ path: 'a', data: { password: { $secret: { env: 'PLAN_MEMO_SECRET' } } } });
    expect(memo.resolve('s', secret, () => UNKNOWN, 'salt').value).toEqual({ path: 'a', data: { password: 'first' } });
    process.env.PLAN_MEMO_SECRET = 'second';
    expect(memo.resolve('s', secret, () => UNKNOWN, 'salt').value).toEqual({ path: 'a', data: { password: 'second' } });

    const reading = resource({ path: { $ref: 'other', attr: 'path' } });
    expect(memo.resolve('r', reading, () => 'one', 'salt').value).toEqual({ path: 'one' });
    expect(memo.resolve('r', reading, () => 'two', 'salt').value).toEqual({ path: 'two' });
  });

  test('an item is diffed again when the answer, the state record or the resolved spec differs, and counted', () => {
    const memo = new PlanMemo();
    const r = resource({ path: 'a', data: { colour: 'blue' } });
    const resolved = memo.resolve('kv', r, () => UNKNOWN, 'salt');
    const answer: Observed = { fields: { path: 'a' }, outputs: { version: 1 } };
    const diff = jest.fn(() => noop('kv'));
    const first = memo.item('kv', r.kind, resolved, record('m1'), answer, diff);
    expect(memo.item('kv', r.kind, resolved, record('m1'), { fields: { path: 'a' }, outputs: { version: 1 } }, diff)).toBe(first);
    expect(diff).toHaveBeenCalledTimes(1);
    expect(memo.takeCounts()).toEqual({ diffed: 1, skipped: 1 });
    memo.item('kv', r.kind, resolved, record('m1'), { fields: { path: 'a' }, outputs: { version: 2 } }, diff);
    memo.item('kv', r.kind, resolved, record('m2'), { fields: { path: 'a' }, outputs: { version: 2 } }, diff);
    const green = memo.resolve('kv', resource({ path: 'a', data: { colour: 'green' } }), () => UNKNOWN, 'salt');
    memo.item('kv', r.kind, green, record('m2'), { fields: { path: 'a' }, outputs: { version: 2 } }, diff);
    expect(memo.takeCounts()).toEqual({ diffed: 3, skipped: 0 });
    // The same content resolved again (another salt, no secret in it): the same item.
    memo.item('kv', r.kind, memo.resolve('kv', resource({ path: 'a', data: { colour: 'green' } }), () => UNKNOWN, 'salt 2'), record('m2'), { fields: { path: 'a' }, outputs: { version: 2 } }, diff);
    expect(memo.takeCounts()).toEqual({ diffed: 0, skipped: 1 });
    // A record without a mac (never trusted as the same) is always diffed.
    const { mac: _m, ...unsealed } = record('m2');
    memo.item('kv', r.kind, resolved, unsealed, answer, diff);
    memo.item('kv', r.kind, resolved, unsealed, answer, diff);
    memo.clear();
    memo.item('kv', r.kind, resolved, record('m1'), answer, diff);
    expect(memo.takeCounts()).toEqual({ diffed: 3, skipped: 0 });
  });
});
