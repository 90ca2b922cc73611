import { RemovalPolicy } from '../../lib';
import { Organization } from '../../lib/platform/organization';
import { countingProxy } from '../support/counting-proxy';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// An update that keeps failing ambiguously (500 to every PATCH: nobody knows whether it took
// effect) is re-read and tried again within one retry budget, not retries x recovery rounds.
describe('recovery of an ambiguous update is bounded', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  test('with CONVERGE_RETRIES=5 a PATCH that always fails is sent 7 times, 13 requests from the first', async () => {
    const build = (email: string) => synthApp((stack) => {
      new Organization(stack, 'org', { name: 'bounded', email, removalPolicy: RemovalPolicy.DESTROY });
    }, 'bounded');
    let r = await cliAsync(['apply', '--synth-dir', build('a@bounded.io'), '--auto-approve'], world.env);
    expect(r.status).toBe(0);

    const proxy = await countingProxy(world.env.PLATFORM_ADDRESS!, (req) => (req.method === 'PATCH'
      ? { status: 500, body: JSON.stringify({ errors: [{ status: '500', title: 'internal error' }] }) } : undefined));
    try {
      r = await cliAsync(['apply', '--synth-dir', build('b@bounded.io'), '--auto-approve'],
        { ...world.env, PLATFORM_ADDRESS: proxy.url, CONVERGE_RETRIES: '5' });
      expect(r.status).toBe(1);
      expect(r.stdout).toMatch(/failed\s+org \(update\): .*PATCH \/api\/v2\/organizations\/bounded failed with 500: internal error/);
      const first = proxy.seen.findIndex((x) => x.method === 'PATCH');
      const after = proxy.seen.slice(first);
      expect(after.filter((x) => x.method === 'PATCH')).toHaveLength(7);
      expect(after).toHaveLength(13);
      // The PATCH, the applier's re-read, the PATCH of reconcile, then five rounds (budget 2 x 5) of re-read + PATCH.
      expect(proxy.seen.length).toBe(2 + 13);
    } finally {
      await proxy.close();
    }
  });
});
