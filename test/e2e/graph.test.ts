import * as fs from 'fs';
import * as path from 'path';
import { TerraformStack } from 'cdktf';
import * as mesh from '../../lib/mesh';
import { KvSecret } from '../../lib/secrets/kv/kv-secret';
import { cliAsync, startWorld, synthApp, tempDir, TestWorld } from '../support/harness';

// Issue 34 item 4: `converge graph` through the real CLI against the emulator: the objects and their
// dependencies, the mesh's traffic (splitter weights, resolver subsets, failover) before and after a
// plan, as Mermaid and SVG; `plan --summary` carries the traffic picture; hostile names stay labels.
describe('converge graph', () => {
  let world: TestWorld;
  beforeAll(async () => { world = await startWorld(); });
  const scratch = tempDir('converge-graph-');
  afterAll(async () => { await world.stop(); fs.rmSync(scratch, { recursive: true, force: true }); });

  const app = (stack: string, name: string, v2Weight: number) => synthApp((s: TerraformStack) => {
    new mesh.ServiceDefaults(s, 'defaults', { name, protocol: mesh.MeshProtocol.HTTP });
    const resolver = new mesh.ServiceResolver(s, 'resolver', {
      name, defaultSubset: 'v1',
      subsets: { v1: { filter: 'Service.Meta.version == v1' }, v2: { filter: 'Service.Meta.version == v2' } },
      failover: { v1: { datacenters: ['dc2'] } },
    });
    const split = new mesh.ServiceSplitter(s, 'split', { name, splits: [{ weight: 100 - v2Weight, serviceSubset: 'v1' }, { weight: v2Weight, serviceSubset: 'v2' }] });
    split.node.addDependency(resolver);
    new KvSecret(s, 'config', { path: `${stack}/config`, data: { weights: String(v2Weight) } });
  }, stack);

  test('the objects and dependencies, and the traffic with weights and subsets before and after a plan that changes a weight', async () => {
    const dir = app('graph-web', 'web', 10);
    expect((await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env)).status).toBe(0);

    // Nothing planned: one picture of the traffic, marked unchanged.
    let r = await cliAsync(['graph', '--synth-dir', dir], world.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^flowchart LR\n/);
    expect(r.stdout).toContain('subgraph s1["stack graph-web"]');
    // Each object is a box "address (kind)" (parentheses as Mermaid entity codes); an edge goes to what it depends on.
    const idOf = (label: string) => new RegExp(`(o\\d+)\\["${label.replace(/[()]/g, (c) => `#${c.charCodeAt(0)};`).replace('.', '\\.')}"\\]`).exec(r.stdout)?.[1];
    const [split, resolver, defaults] = ['split (mesh.ServiceSplitter)', 'resolver (mesh.ServiceResolver)', 'defaults (mesh.ServiceDefaults)'].map(idOf);
    expect([split, resolver, defaults]).toEqual([expect.any(String), expect.any(String), expect.any(String)]);
    expect(r.stdout).toContain(`${split} --> ${resolver}\n`);
    expect(r.stdout).toContain(`${resolver} --> ${defaults}\n`);
    expect(r.stdout).toContain('traffic web #40;unchanged by the plan#41;');
    // The splitter's weights lead to the resolvers of the subsets, each to its target; v1 fails over to dc2.
    const t = (label: string) => new RegExp(`(t\\d+)[[({]+"${label.replace(/\./g, '\\.')}"`).exec(r.stdout)?.[1];
    expect(r.stdout).toContain(`${t('splitter web')} -->|"90#37;"| ${t('resolver v1.web.default.dc1')}\n`);
    expect(r.stdout).toContain(`${t('splitter web')} -->|"10#37;"| ${t('resolver v2.web.default.dc1')}\n`);
    expect(r.stdout).toContain(`${t('resolver v1.web.default.dc1')} -.->|"failover 1"| ${t('web subset v1 dc dc2')}\n`);
    expect(r.stdout).toContain('|"10#37;"|');
    expect(r.stdout).toContain('"web subset v2 dc dc1"');
    expect(r.stdout).toContain('"web subset v1 dc dc1"');
    expect(r.stdout).toMatch(/-\.->\|"failover 1"\| t\d+/);
    expect(r.stdout).toContain('"web subset v1 dc dc2"');

    // A plan that changes a weight: before (90/10) and after (50/50), nothing applied.
    r = await cliAsync(['graph', '--synth-dir', app('graph-web', 'web', 50)], world.env);
    expect(r.status).toBe(0);
    const before = r.stdout.slice(r.stdout.indexOf('traffic web: before'), r.stdout.indexOf('traffic web: after the plan'));
    const after = r.stdout.slice(r.stdout.indexOf('traffic web: after the plan'));
    expect(before).toContain('|"90#37;"|');
    expect(before).toContain('|"10#37;"|');
    expect(after).toContain('|"50#37;"|');
    expect(after).not.toContain('|"90#37;"|');
    const plan = await cliAsync(['plan', '--synth-dir', app('graph-web', 'web', 50), '--detailed-exitcode'], world.env);
    expect(plan.status).toBe(2); // graph applied nothing

    // The same as SVG, to a file: a standalone document with the weights and subsets as text.
    const svgFile = path.join(scratch, 'graph.svg');
    r = await cliAsync(['graph', '--synth-dir', app('graph-web', 'web', 50), '--format', 'svg', '--out', svgFile], world.env);
    expect(r.status).toBe(0);
    const svg = fs.readFileSync(svgFile, 'utf8');
    expect(svg).toMatch(/^<\?xml[^>]*>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toContain('>90%</text>');
    expect(svg).toContain('>50%</text>');
    expect(svg).toContain('>web subset v2 dc dc1</text>');
    expect(svg).toContain('>traffic web: after the plan</text>');

    // plan --summary: the Markdown comment carries the traffic picture as a Mermaid block.
    const summary = path.join(scratch, 'summary.md');
    r = await cliAsync(['plan', '--synth-dir', app('graph-web', 'web', 50), '--summary', summary], world.env);
    expect(r.status).toBe(0);
    const md = fs.readFileSync(summary, 'utf8');
    expect(md).toContain('### Traffic');
    const block = /```mermaid\n([\s\S]*?)```/.exec(md);
    expect(block).not.toBeNull();
    expect(block![1]).toContain('traffic web: before');
    expect(block![1]).toContain('|"50#37;"|');

    expect((await cliAsync(['graph', '--synth-dir', dir, '--format', 'png'], world.env)).stderr).toMatch(/--format must be mermaid or svg \(got png\)/);
  });

  test('names with quotes, brackets, pipes and backticks stay inside their labels (Mermaid, SVG and the plan summary)', async () => {
    const hostile = 'x"];click A call alert()%%|`<b>';
    const dir = synthApp((s: TerraformStack) => {
      new KvSecret(s, hostile, { path: 'graph-hostile/x', data: { a: '1' } });
    }, 'graph-hostile');
    let r = await cliAsync(['graph', '--synth-dir', dir, '--no-traffic'], world.env);
    expect(r.status).toBe(0);
    // Every label is one quoted string with no raw quote, bracket, pipe, backtick, < or % inside.
    for (const line of r.stdout.split('\n').slice(1)) {
      for (const label of line.match(/"[^"]*"/g) ?? []) expect(label.slice(1, -1)).not.toMatch(/["[\]|`<>%{}()]/);
      expect(line.replace(/"[^"]*"/g, '')).not.toMatch(/[`<>%]|click|alert/);
    }
    expect(r.stdout).toContain('x#34;#93;#59;click A call alert#40;#41;#37;#37;#124;#96;#60;b#62;');
    const svgFile = path.join(scratch, 'hostile.svg');
    r = await cliAsync(['graph', '--synth-dir', dir, '--format', 'svg', '--out', svgFile], world.env);
    expect(r.status).toBe(0);
    const svg = fs.readFileSync(svgFile, 'utf8');
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('x&quot;];click A call alert()%%|`&lt;b&gt;');

    // In the pull-request summary: a route whose match quotes a hostile path stays a label in the Mermaid block.
    const routed = synthApp((s: TerraformStack) => {
      new mesh.ServiceDefaults(s, 'defaults', { name: 'shop', protocol: mesh.MeshProtocol.HTTP });
      new mesh.ServiceRouter(s, 'router', { name: 'shop', routes: [{ match: { http: { pathPrefix: '/a"]```|%%<b>' } }, destination: { service: 'shop' } }] });
    }, 'graph-hostile-route');
    const summary = path.join(scratch, 'hostile.md');
    r = await cliAsync(['plan', '--synth-dir', routed, '--summary', summary], world.env);
    expect(r.status).toBe(0);
    const md = fs.readFileSync(summary, 'utf8');
    const traffic = md.slice(md.indexOf('### Traffic'));
    expect(traffic.match(/```/g)).toHaveLength(2); // the block's own fences only
    const block = /```mermaid\n([\s\S]*?)```/.exec(traffic)![1];
    expect(block).toContain('path prefix /a#34;#93;#96;#96;#96;#124;#37;#37;#60;b#62;');
    for (const line of block.split('\n').slice(1)) {
      for (const label of line.match(/"[^"]*"/g) ?? []) expect(label.slice(1, -1)).not.toMatch(/["[\]|`<>%]/);
    }
  });
});
