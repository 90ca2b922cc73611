'use strict';
// A cdktf app in TypeScript as `converge init` makes one (cdktf.json: `npx tsx main.ts`), in a directory of
// its own, for the rows where converge runs the app itself (synthesis included, as a user's plan does).
// Its node_modules links to this checkout's cdktf, constructs and cdk-converge (built: dist/).
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');

/**
 * The stack's source. The KV secrets and organizations are those of bench/gen-app.js (same stack, ids and
 * values: a plan of this app against an apply of gen-app's synth has nothing to do); `serviceDefaults` adds
 * mesh entries `svc-<i>`. `empty`: an app of one empty stack, importing cdktf only (the floor of a synthesis).
 */
function mainTs({ kv = 0, orgs = 0, serviceDefaults = 0, stack = 'bench', empty = false }) {
  if (empty) {
    return `import { App, TerraformStack } from 'cdktf';\n\nconst app = new App();\nnew TerraformStack(app, '${stack}');\napp.synth();\n`;
  }
  return `import { App, TerraformStack } from 'cdktf';
import { mesh, platform, RemovalPolicy, secrets } from 'cdk-converge';

const app = new App();
const stack = new TerraformStack(app, '${stack}');
for (let i = 0; i < ${orgs}; i++) {
  new platform.Organization(stack, \`org\${i}\`, { name: \`bench-org-\${i}\`, email: \`ops\${i}@bench.io\`, removalPolicy: RemovalPolicy.DESTROY });
}
for (let i = 0; i < ${kv}; i++) {
  new secrets.KvSecret(stack, \`kv\${i}\`, { path: \`bench/app\${i % 100}/s\${i}\`, data: { user: \`u\${i}\`, n: String(i) } });
}
for (let i = 0; i < ${serviceDefaults}; i++) {
  new mesh.ServiceDefaults(stack, \`sd\${i}\`, { name: \`svc-\${i}\` });
}
app.synth();
`;
}

/** Writes the app into `dir` (created); returns `dir`. */
function writeApp(dir, spec) {
  fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'cdktf.json'), `${JSON.stringify({ language: 'typescript', app: 'npx tsx main.ts', output: 'cdktf.out' }, null, 2)}\n`);
  fs.writeFileSync(path.join(dir, 'main.ts'), mainTs(spec));
  fs.symlinkSync(root, path.join(dir, 'node_modules', 'cdk-converge'));
  for (const dep of ['cdktf', 'constructs']) fs.symlinkSync(path.join(root, 'node_modules', dep), path.join(dir, 'node_modules', dep));
  return dir;
}

/** The command and environment converge runs the app in `dir` with (lib/core/synth/read-synth.ts runApp): npx left out. */
function appRun(dir) {
  const { directAppCommand } = require(path.join(root, 'dist', 'core', 'synth', 'direct-app-command'));
  const { command, binDir } = directAppCommand('npx tsx main.ts', dir);
  const env = {
    PATH: [binDir, process.env.PATH].filter(Boolean).join(path.delimiter), HOME: process.env.HOME, NO_COLOR: '1',
    JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION: '1', CDKTF_OUTDIR: path.join(dir, 'cdktf.out'), CDKTF_DISABLE_PLUGIN_CACHE_ENV: '1',
  };
  // runApp spawns it with `shell: true`: through /bin/sh, as here.
  return { cmd: '/bin/sh', args: ['-c', command], env };
}

module.exports = { writeApp, appRun, mainTs };
