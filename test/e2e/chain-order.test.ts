import { TerraformStack } from 'cdktf';
import * as mesh from '../../lib/mesh';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, CliResult, startWorld, synthApp, TestWorld } from '../support/harness';

// Issue 22 §2: order. Through the real CLI (dist/) against the emulator over HTTP.
describe('order of a discovery chain and of mesh entries', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  const kv = async (p: string) => {
    const res = await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/${p}`, { headers: { 'x-secrets-token': world.env.SECRETS_TOKEN! } });
    return res.status === 200 ? ((await res.json()) as { data: { data: Record<string, unknown> } }).data.data : undefined;
  };
  const entry = async (p: string) => (await fetch(`${world.env.MESH_HTTP_ADDR}/v1/config/${p}`, { headers: { 'x-mesh-token': world.env.MESH_HTTP_TOKEN! } })).status;
  /** Every progress counter `[done/total]` printed: never more done than total. */
  const counters = (r: CliResult) => [...(r.stdout + r.stderr).matchAll(/\[(\d+)\/(\d+)\]/g)].map((m) => [Number(m[1]), Number(m[2])]);

  test('a discovery chain is read after the entries of its chain are written (or removed): the plan after each apply is a no-op', async () => {
    const app = (protocol: mesh.MeshProtocol, resolver: boolean) => synthApp((s: TerraformStack) => {
      new mesh.ServiceDefaults(s, 'pay-defaults', { name: 'pay', protocol });
      if (resolver) new mesh.ServiceResolver(s, 'pay-resolver', { name: 'pay', defaultSubset: 'v1', subsets: { v1: { filter: 'Service.Meta.version == v1' } } });
      const chain = new mesh.DiscoveryChain(s, 'pay-chain', { service: 'pay' });
      new KvSecret(s, 'seen', { path: 'co/chain', data: { protocol: chain.protocol, targets: chain.targetIds } });
    }, 'co-chain');
    const steps: [mesh.MeshProtocol, boolean, Record<string, unknown>][] = [
      [mesh.MeshProtocol.TCP, false, { protocol: 'tcp', targets: 'pay.default.dc1' }],
      [mesh.MeshProtocol.HTTP, false, { protocol: 'http', targets: 'pay.default.dc1' }],
      [mesh.MeshProtocol.HTTP, true, { protocol: 'http', targets: 'v1.pay.default.dc1' }],
      [mesh.MeshProtocol.HTTP, false, { protocol: 'http', targets: 'pay.default.dc1' }],
    ];
    for (const [protocol, resolver, seen] of steps) {
      let r = await cliAsync(['apply', '--synth-dir', app(protocol, resolver), '--auto-approve'], world.env);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(await kv('co/chain')).toEqual(seen);
      r = await cliAsync(['plan', '--synth-dir', app(protocol, resolver), '--detailed-exitcode'], world.env);
      expect(r.stdout).toMatch(/No changes/);
      expect(r.status).toBe(0);
    }
  });

  test('renaming a subset (resolver, splitter and router together) is refused at plan with the steps that work; those steps apply', async () => {
    const app = (subsets: string[], used: string) => synthApp((s: TerraformStack) => {
      new mesh.ServiceDefaults(s, 'cart-defaults', { name: 'cart', protocol: mesh.MeshProtocol.HTTP });
      new mesh.ServiceResolver(s, 'cart-resolver', {
        name: 'cart', subsets: Object.fromEntries(subsets.map((n) => [n, { filter: `Service.Meta.version == ${n}` }])),
      });
      new mesh.ServiceSplitter(s, 'cart-split', { name: 'cart', splits: [{ weight: 100, serviceSubset: used }] });
      new mesh.ServiceRouter(s, 'cart-router', { name: 'cart', routes: [{ match: { http: { pathPrefix: '/x' } }, destination: { serviceSubset: used } }] });
    }, 'co-rename');
    let r = await cliAsync(['apply', '--synth-dir', app(['v1'], 'v1'), '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    for (const cmd of [['plan'], ['apply', '--auto-approve']]) {
      r = await cliAsync([...cmd, '--synth-dir', app(['v2'], 'v2')], world.env);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/cart-resolver removes subset v1 of service cart, which cart-router and cart-split use now, and adds v2, which they will use: no order of writes works in one apply\. Apply it in two steps: first the resolver with both subsets \(v1, v2\) and the entries that use v2, then the resolver without v1/);
    }
    // The steps it names work.
    r = await cliAsync(['apply', '--synth-dir', app(['v1', 'v2'], 'v2'), '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    r = await cliAsync(['apply', '--synth-dir', app(['v2'], 'v2'), '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    r = await cliAsync(['plan', '--synth-dir', app(['v2'], 'v2'), '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);
  });

  test.each([1, 10])('removing a router and changing its service to tcp in one apply works at --parallelism %i; the counter never passes its total', async (parallelism) => {
    const svc = `tcp${parallelism}`;
    const app = (withRouter: boolean) => synthApp((s: TerraformStack) => {
      new mesh.ServiceDefaults(s, 'defaults', { name: svc, protocol: withRouter ? mesh.MeshProtocol.HTTP : mesh.MeshProtocol.TCP });
      new mesh.ServiceDefaults(s, 'admin-defaults', { name: `${svc}-admin`, protocol: mesh.MeshProtocol.HTTP });
      if (withRouter) {
        new mesh.ServiceRouter(s, 'router', { name: svc, routes: [{ match: { http: { pathPrefix: '/admin' } }, destination: { service: `${svc}-admin` } }] });
      }
    }, `co-tcp-${parallelism}`);
    let r = await cliAsync(['apply', '--synth-dir', app(true), '--auto-approve', '--parallelism', String(parallelism)], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['apply', '--synth-dir', app(false), '--auto-approve', '--parallelism', String(parallelism)], world.env);
    expect(r.stdout).toMatch(/Apply complete: 2 done, 0 failed, 0 skipped/);
    expect(r.status).toBe(0);
    expect(r.stdout.indexOf('router: destroyed')).toBeLessThan(r.stdout.indexOf('defaults: updated'));
    expect(await entry(`service-router/${svc}`)).toBe(404);
    for (const [done, total] of counters(r)) expect(done).toBeLessThanOrEqual(total);
    r = await cliAsync(['plan', '--synth-dir', app(false), '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);
  });

  test('when an operation fails, the progress counter of what follows never passes its total', async () => {
    const app = (n: string) => synthApp((s: TerraformStack) => {
      const a = new KvSecret(s, 'a', { path: 'co/count-a', data: { n } });
      // Up to date, after `a`: skipped when `a` fails, and never counted beyond the total.
      for (let i = 0; i < 3; i++) new KvSecret(s, `b${i}`, { path: `co/count-b${i}`, data: { i } }).node.addDependency(a);
    }, 'co-count');
    let r = await cliAsync(['apply', '--synth-dir', app('1'), '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    // A writer after the saved plan: the update of `a` fails (check-and-set).
    const planFile = `${world.dir}/co-count.plan`;
    r = await cliAsync(['plan', '--synth-dir', app('2'), '--out', planFile], world.env);
    expect(r.status).toBe(0);
    await fetch(`${world.env.SECRETS_ADDR}/v1/secret/data/co/count-a`, {
      method: 'POST', headers: { 'x-secrets-token': world.env.SECRETS_TOKEN!, 'content-type': 'application/json' }, body: JSON.stringify({ data: { n: 'x' } }),
    });
    r = await cliAsync(['apply', planFile], world.env);
    expect(r.status).toBe(1);
    expect(counters(r).length).toBeGreaterThan(0);
    for (const [done, total] of counters(r)) expect(done).toBeLessThanOrEqual(total);
  });
});
