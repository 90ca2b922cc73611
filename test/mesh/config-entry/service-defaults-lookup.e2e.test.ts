import * as mesh from '../../../lib/mesh';
import { cliAsync, startWorld, synthApp, TestWorld } from '../../support/harness';

// `ServiceDefaults.fromName` reads the service-defaults of a service at plan time, through the real CLI
// against the emulator: its protocol feeds another construct; an absent one fails the plan, naming the construct.
describe('ServiceDefaults.fromName', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => world?.stop());

  const api = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${world.env.MESH_HTTP_ADDR}${path}`, {
      method, headers: { 'x-mesh-token': world.env.MESH_HTTP_TOKEN! }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: r.status === 200 ? await r.json() as any : undefined };
  };

  test('existing service-defaults: read at plan time, fed into another entry, never changed nor deleted', async () => {
    // Written outside converge, in a namespace.
    expect((await api('PUT', '/v1/config?ns=team', { Kind: 'service-defaults', Name: 'billing', Namespace: 'team', Protocol: 'grpc' })).body).toBe(true);
    const dir = synthApp((stack) => {
      const billing = mesh.ServiceDefaults.fromName(stack, 'billing-defaults', 'billing', 'team');
      new mesh.ServiceResolver(stack, 'billing-resolver', {
        name: billing.serviceName, namespace: billing.serviceNamespace, connectTimeout: '3s', meta: { protocol: billing.serviceProtocol },
      });
    }, 'consumer');
    const apply = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(apply.stderr).toBe('');
    expect(apply.status).toBe(0);
    expect((await api('GET', '/v1/config/service-resolver/billing?ns=team')).body).toMatchObject({ Meta: { protocol: 'grpc' }, ConnectTimeout: '3s' });

    const plan = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env);
    expect(plan.status).toBe(0);

    const destroy = await cliAsync(['destroy', '--synth-dir', dir, '--auto-approve'], world.env);
    expect(destroy.status).toBe(0);
    expect((await api('GET', '/v1/config/service-resolver/billing?ns=team')).status).toBe(404);
    expect((await api('GET', '/v1/config/service-defaults/billing?ns=team')).body).toMatchObject({ Name: 'billing', Protocol: 'grpc' });
  });

  test('absent service-defaults fail the plan, naming the construct and the service', async () => {
    const dir = synthApp((stack) => {
      const ghost = mesh.ServiceDefaults.fromName(stack, 'ghost-defaults', 'ghost');
      new mesh.ServiceResolver(stack, 'ghost-resolver', { name: ghost.serviceName, meta: { protocol: ghost.serviceProtocol } });
    }, 'absent');
    const plan = await cliAsync(['plan', '--synth-dir', dir], world.env);
    expect(plan.status).toBe(1);
    expect(plan.stderr).toMatch(/absent\/ghost-defaults: mesh\.ServiceDefaults "service-defaults\/ghost" does not exist/);
  });
});
