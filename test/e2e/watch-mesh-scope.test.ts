import { App, TerraformStack } from 'cdktf';
import { MeshProtocol } from '../../lib/mesh/shared/mesh-types';
import { ServiceDefaults } from '../../lib/mesh/config-entry/service-defaults';
import { cliAsync, startWorld, tempDir, TestWorld } from '../support/harness';
import { startWatch, WatchEvent, WatchProcess } from '../support/watch-process';


// A blocking query answers for a whole entry kind; a change of one stack's entry plans (and locks)
// that stack only, never another stack that manages entries of the same kind.
describe('converge watch: a mesh wake-up plans only the stack whose entry changed', () => {
  let world: TestWorld;
  let w: WatchProcess | undefined;
  beforeAll(async () => { world = await startWorld(); });
  afterAll(async () => {
    await w?.stop('SIGKILL');
    await world?.stop();
  });
  const putEntry = (entry: Record<string, unknown>) => fetch(`${world.env.MESH_HTTP_ADDR}/v1/config`, {
    method: 'PUT', headers: { 'x-mesh-token': world.env.MESH_HTTP_TOKEN! }, body: JSON.stringify(entry),
  });
  const of = (stack: string, event: string) => (e: WatchEvent) => e.stack === stack && e.event === event;
  const meshCycles = (stack: string, from: number) => w!.events.slice(from).filter((e) => e.event === 'cycle' && e.stack === stack && e.scope === 'mesh');

  test('an entry of stack m1 changes: m2 (same kind) is not planned', async () => {
    const dir = tempDir('converge-mesh-scope-');
    const app = new App({ outdir: dir });
    for (const s of ['m1', 'm2']) new ServiceDefaults(new TerraformStack(app, s), 'web', { name: `${s}-web`, protocol: MeshProtocol.HTTP });
    app.synth();
    const applied = await cliAsync(['apply', '--synth-dir', dir, '--stack', '*', '--auto-approve'], world.env);
    expect(applied.status).toBe(0);

    w = startWatch(['--synth-dir', dir, '--interval', '3600'], world.env);
    await Promise.all([w.waitFor(of('m1', 'cycle')), w.waitFor(of('m2', 'cycle'))]);
    const mark = w.events.length;
    expect((await putEntry({ Kind: 'service-defaults', Name: 'm1-web', Protocol: 'http2' })).status).toBe(200);
    const d1 = await w.waitFor(of('m1', 'drift'), mark);
    await w.waitFor(of('m1', 'cycle'), w.events.indexOf(d1));
    // Then m2's own entry changes: the cycle that finds its drift is the only mesh cycle m2 had since the mark.
    expect((await putEntry({ Kind: 'service-defaults', Name: 'm2-web', Protocol: 'grpc' })).status).toBe(200);
    const d2 = await w.waitFor(of('m2', 'drift'), mark);
    await w.waitFor(of('m2', 'cycle'), w.events.indexOf(d2));
    expect(meshCycles('m2', mark)).toHaveLength(1);
    expect(meshCycles('m1', mark)).toHaveLength(1);
  });
});
