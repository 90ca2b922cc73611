import { StackPlan } from '../../lib/core/engine/plan-model';
import { Output } from '../../lib/cli/output';
import { renderPlan } from '../../lib/cli/render-plan';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

/** The lines renderPlan writes for a plan. */
function rendered(plan: Partial<StackPlan>): string[] {
  const lines: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => { lines.push(...String(s).split('\n').slice(0, -1)); return true; });
  try {
    renderPlan({ stack: 'dev', lineage: 'l', serial: 1, items: [], notes: [], desired: { stack: 'dev', resources: {} } as never, ...plan } as StackPlan,
      new Output({ color: false }));
  } finally {
    spy.mockRestore();
  }
  return lines;
}

const noop = (address: string) => ({ address, kind: 'secrets.KvSecret', action: 'noop' as const, changes: [], drift: [], warnings: [] });

describe('plan wording', () => {
  test('one object is "1 object", two are "2 objects"', () => {
    expect(rendered({ items: [noop('a')] })).toContain('No changes. Stack dev matches the app (1 object).');
    expect(rendered({ items: [noop('a'), noop('b')] })).toContain('No changes. Stack dev matches the app (2 objects).');
  });

  test('traffic notes are indented under a heading and listed in natural order of their service', () => {
    const lines = rendered({
      items: [{ ...noop('r'), kind: 'mesh.ServiceRouter', action: 'update', changes: [{ path: 'routes', before: [], after: [1], sensitive: false, replace: false }] }],
      notes: ['traffic svc-10: route added: /a -> svc-10', 'traffic svc-2: split x added: v1 100%', 'traffic svc-1: route order: /b, /a', 'traffic svc-1: route added: /b -> v1'],
    });
    const at = lines.indexOf('What changes for traffic:');
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 1, at + 5)).toEqual([
      '  traffic svc-1: route order: /b, /a', '  traffic svc-1: route added: /b -> v1',
      '  traffic svc-2: split x added: v1 100%', '  traffic svc-10: route added: /a -> svc-10',
    ]);
  });
});

// Through the real CLI against the emulator: a key added to a KV secret is an addition, a key
// dropped a removal, a key whose value changes a change; no value is printed.
describe('plan wording of sensitive map entries', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });
  const app = (data: Record<string, string>) => synthApp((stack) => { new KvSecret(stack, 'cfg', { path: 'wording/cfg', data }); });

  test('+ for a key added, - for a key removed, ~ (changed) for a key changed; no value anywhere', async () => {
    const applied = await cliAsync(['apply', '--auto-approve', '--synth-dir', app({ a: 'val-a-77f1', c: 'val-c-77f1' })], world.env);
    expect(applied.stderr).not.toMatch(/Error/);
    expect(applied.status).toBe(0);
    const r = await cliAsync(['plan', '--synth-dir', app({ a: 'val-a-77f1', b: 'val-b-77f1', c: 'val-c2-77f1' })], world.env);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^ {6}\+ data\.b = \(sensitive\)$/m);
    expect(r.stdout).toMatch(/^ {6}~ data\.c = \(sensitive, changed\)$/m);
    expect(r.stdout).not.toMatch(/data\.a/);
    const removed = await cliAsync(['plan', '--synth-dir', app({ a: 'val-a-77f1' })], world.env);
    expect(removed.stdout).toMatch(/^ {6}- data\.c = \(sensitive\)$/m);
    const json = await cliAsync(['plan', '--json', '--synth-dir', app({ a: 'val-a-77f1', b: 'val-b-77f1' })], world.env);
    const fields = JSON.parse(json.stdout).stacks[0].changes[0].fields;
    expect(fields).toHaveLength(2);
    expect(fields).toEqual(expect.arrayContaining([{ path: 'data.b', added: true, sensitive: true, replace: false }, { path: 'data.c', removed: true, sensitive: true, replace: false }]));
    for (const out of [r, removed, json]) expect(out.stdout + out.stderr).not.toMatch(/val-[abc]2?-77f1/);
  });
});
