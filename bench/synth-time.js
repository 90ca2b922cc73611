// Time to build and render a stack's desired state (construct checks and schema rendering), outside the engine:
// `node bench/synth-time.js [REPO]` builds 100 organizations and 2000 KV secrets with REPO's dist/ (default:
// this checkout, after `npm run build`) and prints the milliseconds spent constructing and rendering.
const path = require('path');
const repo = path.resolve(process.argv[2] ?? path.join(__dirname, '..'));
const { App, TerraformStack } = require(path.join(repo, 'node_modules', 'cdktf'));
const converge = require(path.join(repo, 'dist', 'index.js'));

const t0 = process.hrtime.bigint();
const stack = new TerraformStack(new App({ outdir: require('os').tmpdir() }), 's');
for (let i = 0; i < 100; i++) new converge.platform.Organization(stack, `org${i}`, { name: `org-${i}`, email: 'a@b.io' });
for (let i = 0; i < 2000; i++) new converge.secrets.KvSecret(stack, `kv${i}`, { path: `app/k${i}`, data: { user: `u${i}`, n: i } });
const t1 = process.hrtime.bigint();
const desired = converge.ConvergeTesting.desiredState(stack);
const t2 = process.hrtime.bigint();
console.log(JSON.stringify({
  resources: Object.keys(desired.resources).length,
  constructMs: Math.round(Number(t1 - t0) / 1e5) / 10,
  renderMs: Math.round(Number(t2 - t1) / 1e5) / 10,
}));
