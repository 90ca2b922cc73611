'use strict';
// Peak RSS of each process of a no-op plan as a user runs it (issue 37): converge runs the app itself (no
// --synth-dir, its synthesis cache cold), so the run has a CLI process and a synthesis (the app's node and
// tsx's launcher). Each reports its own peak (bench/process-peaks.js); /usr/bin/time's figure, the largest
// of the tree, is kept beside them.
const fs = require('fs');
const path = require('path');
const { writeApp } = require('./app-dir');
const { processPeaks } = require('./process-peaks');

const mb = (kb) => kb / 1024;
const max = (xs) => (xs.length ? Math.max(...xs) : NaN);

/**
 * In a world where bench/gen-app.js's stack of `kv` secrets and `orgs` organizations is applied (`env`, `dir`):
 * the same stack as a TypeScript app (bench/app-dir.js), planned with nothing to change.
 * `ctx`: { parallelism, converge(args, env, { cwd }), begin(), record(row, mark) }.
 */
async function memoryRow(ctx, { env, dir, kv, orgs, latencyMs, backend }) {
  const appDir = writeApp(path.join(dir, 'app'), { kv, orgs });
  const peaks = processPeaks(path.join(dir, 'peaks'));
  fs.rmSync(path.join(env.CONVERGE_DIR, 'synth-cache'), { recursive: true, force: true });
  peaks.reset();
  const mark = ctx.begin();
  const r = await ctx.converge(['plan', '--parallelism', String(ctx.parallelism), '--detailed-exitcode'], { ...env, NODE_OPTIONS: peaks.nodeOptions }, { cwd: appDir });
  if (r.status !== 0) throw new Error(`bench: the plan of the app in ${appDir} found changes (exit ${r.status})`);
  const { cli, synthesis } = peaks.read();
  if (cli.length !== 1 || synthesis.length === 0) throw new Error(`bench: expected the CLI's and the synthesis's processes to report, got ${cli.length} and ${synthesis.length}`);
  const processes = [...cli.map((p) => ({ role: 'cli', ...p })), ...synthesis.map((p) => ({ role: 'synthesis', ...p }))]
    .map((p) => ({ role: p.role, script: path.basename(p.script ?? '-'), maxRssMb: mb(p.maxRssKb), cpuMs: p.cpuMs }));
  const synthRssMb = max(synthesis.map((p) => mb(p.maxRssKb)));
  ctx.record({
    kv, orgs, latency: latencyMs, backend, step: 'plan (no changes), the app run by converge, synth cache cold',
    wall: r.wall, requests: r.requests, byApi: r.byApi, retries: r.retries, rssMb: mb(cli[0].maxRssKb), synthRssMb, treeRssMb: r.treeRssMb,
    cpuMs: cli[0].cpuMs, synthCpuMs: synthesis.reduce((a, p) => a + p.cpuMs, 0), treeCpuMs: r.treeCpuMs, processes,
    cpuMsPerObject: cli[0].cpuMs / (kv + orgs),
    note: `peak RSS per process: ${processes.map((p) => `${p.role} (${p.script}) ${p.maxRssMb.toFixed(0)} MB`).join(', ')}; `
      + `the tree (/usr/bin/time) ${r.treeRssMb.toFixed(0)} MB; CPU: cli ${cli[0].cpuMs.toFixed(0)} ms, synthesis `
      + `${synthesis.reduce((a, p) => a + p.cpuMs, 0).toFixed(0)} ms`,
  }, mark);
}

module.exports = { memoryRow };
