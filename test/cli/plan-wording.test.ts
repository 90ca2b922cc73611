import { StackPlan } from '../../lib/core/engine/plan-model';
import { Output } from '../../lib/cli/output';
import { renderPlan } from '../../lib/cli/render-plan';

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
