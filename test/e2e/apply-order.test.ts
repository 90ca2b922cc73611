import { RemovalPolicy } from '../../lib';
import * as mesh from '../../lib/mesh';
import { Organization } from '../../lib/platform/organization/organization';
import { OrganizationEntitlements } from '../../lib/platform/organization/organization-entitlements';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';

// Issue 12 §3: the order of an apply follows the change, not only the references.
// Through the real CLI (dist/) against the emulator over HTTP.
describe('apply order', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => { await world.stop(); });

  const entry = async (p: string) => (await fetch(`${world.env.MESH_HTTP_ADDR}/v1/config/${p}`, { headers: { 'x-mesh-token': world.env.MESH_HTTP_TOKEN! } })).status;

  test('a removed service-defaults goes after the router that routed to it is re-pointed', async () => {
    const app = (withApi: boolean) => synthApp((s) => {
      new mesh.ServiceDefaults(s, 'web-defaults', { name: 'web', protocol: mesh.MeshProtocol.HTTP });
      new mesh.ServiceDefaults(s, 'admin-defaults', { name: 'admin', protocol: mesh.MeshProtocol.HTTP });
      if (withApi) new mesh.ServiceDefaults(s, 'api-defaults', { name: 'api', protocol: mesh.MeshProtocol.HTTP });
      new mesh.ServiceRouter(s, 'web-router', { name: 'web', routes: [{ match: { http: { pathPrefix: '/api' } }, destination: { service: withApi ? 'api' : 'admin' } }] });
    }, 'order-router');
    let r = await cliAsync(['apply', '--synth-dir', app(true), '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    r = await cliAsync(['apply', '--synth-dir', app(false), '--auto-approve'], world.env);
    expect(r.stdout).toMatch(/Apply complete: 2 done, 0 failed, 0 skipped/);
    expect(r.status).toBe(0);
    expect(await entry('service-defaults/api')).toBe(404);
  });

  test('a subset removed from a resolver and from its splitter in one change: the splitter is written first', async () => {
    const app = (both: boolean) => synthApp((s) => {
      new mesh.ServiceDefaults(s, 'shop-defaults', { name: 'shop', protocol: mesh.MeshProtocol.HTTP });
      new mesh.ServiceResolver(s, 'shop-resolver', {
        name: 'shop', subsets: { v1: { filter: 'Service.Meta.version == v1' }, ...(both ? { v2: { filter: 'Service.Meta.version == v2' } } : {}) },
      });
      new mesh.ServiceSplitter(s, 'shop-split', { name: 'shop', splits: both ? [{ weight: 50, serviceSubset: 'v1' }, { weight: 50, serviceSubset: 'v2' }] : [{ weight: 100, serviceSubset: 'v1' }] });
    }, 'order-subset');
    let r = await cliAsync(['apply', '--synth-dir', app(true), '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['apply', '--synth-dir', app(false), '--auto-approve'], world.env);
    expect(r.stdout).toMatch(/Apply complete: 2 done, 0 failed, 0 skipped/);
    expect(r.status).toBe(0);
    r = await cliAsync(['plan', '--synth-dir', app(false), '--detailed-exitcode'], world.env);
    expect(r.status).toBe(0);
  });

  test('destroy of a stack with a data source: nothing is read, everything converge made is deleted', async () => {
    const app = synthApp((s) => {
      const org = new Organization(s, 'org', { name: 'order-ds', email: 'a@b.io', removalPolicy: RemovalPolicy.DESTROY });
      new OrganizationEntitlements(s, 'ents', { organization: org });
    }, 'order-ds');
    let r = await cliAsync(['apply', '--synth-dir', app, '--auto-approve'], world.env);
    expect(r.status).toBe(0);
    r = await cliAsync(['destroy', '--synth-dir', app, '--auto-approve'], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Destroy complete: 2 done, 0 failed/);
    const org = await fetch(`${world.env.PLATFORM_ADDRESS}/api/v2/organizations/order-ds`, { headers: { authorization: `Bearer ${world.env.PLATFORM_TOKEN}` } });
    expect(org.status).toBe(404);
  });
});
