import { RemovalPolicy } from '../../lib';
import { MeshProtocol } from '../../lib/mesh/shared/mesh-types';
import { ServiceDefaults } from '../../lib/mesh/config-entry/service-defaults';
import { Organization } from '../../lib/platform/organization/organization';
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

    // A 500 that is not the platform's own JSON:API error (something in between answered): ambiguous.
    const proxy = await countingProxy(world.env.PLATFORM_ADDRESS!, (req) => (req.method === 'PATCH'
      ? { status: 500, body: 'internal error' } : undefined));
    try {
      r = await cliAsync(['apply', '--synth-dir', build('b@bounded.io'), '--auto-approve'],
        { ...world.env, PLATFORM_ADDRESS: proxy.url, CONVERGE_RETRIES: '5' });
      expect(r.status).toBe(1);
      expect(r.stdout).toMatch(/failed\s+org \(update\): .*PATCH \/api\/v2\/organizations\/bounded failed with 500: internal error/);
      const first = proxy.seen.findIndex((x) => x.method === 'PATCH');
      const after = proxy.seen.slice(first);
      expect(after.filter((x) => x.method === 'PATCH')).toHaveLength(7);
      expect(after).toHaveLength(13);
      // Before it: the address check and the plan's read, then the preflight's read of the organization's permissions.
      // From it: the PATCH, the applier's re-read, the PATCH of reconcile, then five rounds (budget 2 x 5) of re-read + PATCH.
      expect(proxy.seen.length).toBe(2 + 1 + 13);
    } finally {
      await proxy.close();
    }
  });

  test('the platform\'s own 500 (a JSON:API error document) to a PATCH is final: sent once (issue 33)', async () => {
    const build = (email: string) => synthApp((stack) => {
      new Organization(stack, 'org', { name: 'bounded', email, removalPolicy: RemovalPolicy.DESTROY });
    }, 'bounded');
    const proxy = await countingProxy(world.env.PLATFORM_ADDRESS!, (req) => (req.method === 'PATCH'
      ? { status: 500, body: JSON.stringify({ errors: [{ status: '500', title: 'internal error', detail: 'email is invalid' }] }) } : undefined));
    try {
      const r = await cliAsync(['apply', '--synth-dir', build('c@bounded.io'), '--auto-approve'],
        { ...world.env, PLATFORM_ADDRESS: proxy.url, CONVERGE_RETRIES: '5' });
      expect(r.status).toBe(1);
      expect(r.stdout).toMatch(/PATCH \/api\/v2\/organizations\/bounded failed with 500: internal error: email is invalid/);
      expect(proxy.seen.filter((x) => x.method === 'PATCH')).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  test('a mesh entry update (a PUT with ?cas, so not idempotent) that keeps failing: 7 PUTs, 13 requests from the first', async () => {
    const build = (protocol: MeshProtocol) => synthApp((stack) => { new ServiceDefaults(stack, 'svc', { name: 'bounded-svc', protocol }); }, 'bounded-mesh');
    let r = await cliAsync(['apply', '--synth-dir', build(MeshProtocol.HTTP), '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    // A 500 that names a passing condition (so retryable), to every write.
    const proxy = await countingProxy(world.env.MESH_HTTP_ADDR!, (req) => (req.method === 'PUT' ? { status: 500, body: 'No cluster leader' } : undefined));
    try {
      r = await cliAsync(['apply', '--synth-dir', build(MeshProtocol.GRPC), '--auto-approve'],
        { ...world.env, MESH_HTTP_ADDR: proxy.url, CONVERGE_RETRIES: '5' });
      expect(r.status).toBe(1);
      expect(r.stdout).toMatch(/failed\s+svc \(update\): .*PUT \/v1\/config failed with 500: No cluster leader/);
      const first = proxy.seen.findIndex((x) => x.method === 'PUT');
      const after = proxy.seen.slice(first).map((x) => x.method);
      // The first try writes against the ModifyIndex the plan read; each recovery round re-reads first (budget 2 x 5).
      expect(after.filter((m) => m === 'PUT')).toHaveLength(7);
      expect(after).toHaveLength(13);
    } finally {
      await proxy.close();
    }
  });

  test('a write the HTTP client already retried until its retries ran out (429 to every PATCH) is final: 6 PATCHes, no recovery round', async () => {
    const build = (email: string) => synthApp((stack) => {
      new Organization(stack, 'org', { name: 'bounded-429', email, removalPolicy: RemovalPolicy.DESTROY });
    }, 'bounded-429');
    let r = await cliAsync(['apply', '--synth-dir', build('a@bounded.io'), '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    const proxy = await countingProxy(world.env.PLATFORM_ADDRESS!, (req) => (req.method === 'PATCH'
      ? { status: 429, headers: { 'retry-after': '0' }, body: JSON.stringify({ errors: [{ status: 429, title: 'Too many requests' }] }) } : undefined));
    try {
      r = await cliAsync(['apply', '--synth-dir', build('b@bounded.io'), '--auto-approve'],
        { ...world.env, PLATFORM_ADDRESS: proxy.url, CONVERGE_RETRIES: '5' });
      expect(r.status).toBe(1);
      expect(r.stdout).toMatch(/failed with 429: Too many requests/);
      const first = proxy.seen.findIndex((x) => x.method === 'PATCH');
      expect(proxy.seen.slice(first).map((x) => x.method)).toEqual(['PATCH', 'PATCH', 'PATCH', 'PATCH', 'PATCH', 'PATCH']);
    } finally {
      await proxy.close();
    }
  });
});
