'use strict';
// The fixed cost a user waits for on a small stack (issue 37), each figure beside its floor in the same run:
//   - a no-op `converge plan` of a 200-object app (100 KV secrets + 100 ServiceDefaults, L = 0), converge
//     running the app itself (no --synth-dir) with its synthesis cache cold (removed before the run) and warm,
//     against the synthesis of an empty cdktf app run the way converge runs apps (`npx tsx main.ts` without
//     npx, through /bin/sh); the row's `difference` is the target's figure (within 1.5 s);
//   - `converge --version` against `node -e 0` (bin/converge as a user starts it); CPU as each process reports it.
// Medians of `runs` (3) and `versionRuns` (5), the commands alternating so that a change of load hits each alike.
// Wall and CPU: CPU is user + system of the whole process tree (/usr/bin/time), the app's synthesis included.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { writeApp, appRun } = require('./app-dir');
const { processPeaks } = require('./process-peaks');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const list = (xs, d = 2) => xs.map((x) => x.toFixed(d)).join(', ');

/**
 * `ctx`: { cli, parallelism, timed, startEmulator, converge(args, env, { cwd }), worldEnv(emu, dir), begin(), record(row, mark) }.
 */
async function fixedCost(ctx, { runs = 3, versionRuns = 5, kv = 100, serviceDefaults = 100 } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fixed-'));
  const emu = await ctx.startEmulator(ctx.cli, 0, dir);
  const env = ctx.worldEnv(emu, dir);
  const appDir = writeApp(path.join(dir, 'app'), { kv, serviceDefaults, stack: 'fixed' });
  const empty = appRun(writeApp(path.join(dir, 'empty'), { empty: true }));
  const objects = kv + serviceDefaults;
  const what = `${kv} KV + ${serviceDefaults} ServiceDefaults`;
  const common = ['--parallelism', String(ctx.parallelism)];
  const cache = path.join(env.CONVERGE_DIR, 'synth-cache');
  try {
    await ctx.converge(['apply', ...common, '--auto-approve'], env, { cwd: appDir });
    const mark = ctx.begin();
    const floor = [];
    const cold = [];
    const warm = [];
    for (let i = 0; i < runs; i++) {
      floor.push(await ctx.timed(empty.cmd, empty.args, empty.env, { cwd: path.join(dir, 'empty') }));
      fs.rmSync(cache, { recursive: true, force: true });
      cold.push(await noopPlan(ctx, common, env, appDir));
      warm.push(await noopPlan(ctx, common, env, appDir));
    }
    const floorWall = median(floor.map((r) => r.wall));
    const floorCpu = median(floor.map((r) => r.cpuMs));
    const row = (name, rs) => {
      const wall = median(rs.map((r) => r.wall));
      const cpu = median(rs.map((r) => r.treeCpuMs));
      return {
        objects, latency: 0, backend: 'local', step: `no-op plan of ${what}, the app run by converge, synth cache ${name}`,
        wall, floor: floorWall, difference: wall - floorWall, cpuMs: cpu, floorCpuMs: floorCpu, requests: rs[0].requests, byApi: rs[0].byApi,
        rssMb: median(rs.map((r) => r.rssMb)),
        runs: rs.map((r) => r.wall), floorRuns: floor.map((r) => r.wall),
        note: `floor: an empty cdktf app's synthesis; difference ${(wall - floorWall).toFixed(2)} s (target ≤ 1.5 s); CPU ${(cpu / 1000).toFixed(2)} s`
          + ` vs ${(floorCpu / 1000).toFixed(2)} s; median of ${runs}: plan ${list(rs.map((r) => r.wall))} s, empty synth ${list(floor.map((r) => r.wall))} s`,
      };
    };
    // One mark for both rows: their runs alternate.
    const coldRow = row('cold', cold);
    const warmRow = row('warm', warm);
    ctx.record(coldRow, mark);
    ctx.record(warmRow, { start: mark.start });
  } finally {
    await emu.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  await version(ctx, versionRuns);
}

/** A plan that must find nothing to do (`--detailed-exitcode`: 2 would mean the bench's app and state differ). */
async function noopPlan(ctx, common, env, cwd) {
  const r = await ctx.converge(['plan', ...common, '--detailed-exitcode'], env, { cwd });
  if (r.status !== 0) throw new Error(`bench: the no-op plan in ${cwd} found changes (exit ${r.status})`);
  return r;
}

/**
 * `converge --version` against `node -e 0`: wall, and CPU (user + system) of the node process as it reports it at its
 * exit (bench/process-peaks.js; /usr/bin/time counts in steps of 10 ms, a fifth of the figure), medians of `runs`.
 */
async function version(ctx, runs) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-version-'));
  const peaks = processPeaks(dir);
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_OPTIONS: peaks.nodeOptions };
  const one = async (cmd, args) => {
    peaks.reset();
    const r = await ctx.timed(cmd, args, env);
    const { cli, synthesis } = peaks.read();
    return { wall: r.wall, cpuMs: [...cli, ...synthesis].reduce((a, p) => a + p.cpuMs, 0) };
  };
  const mark = ctx.begin();
  const conv = [];
  const bare = [];
  try {
    for (let i = 0; i < runs; i++) {
      conv.push(await one(ctx.cli, ['--version']));
      bare.push(await one(process.execPath, ['-e', '0']));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const wall = median(conv.map((r) => r.wall));
  const floor = median(bare.map((r) => r.wall));
  const cpu = median(conv.map((r) => r.cpuMs));
  const floorCpu = median(bare.map((r) => r.cpuMs));
  ctx.record({
    step: 'converge --version', wall, floor, cpuMs: cpu, floorCpuMs: floorCpu, runs: conv.map((r) => r.wall), floorRuns: bare.map((r) => r.wall),
    note: `floor: node -e 0; CPU ${cpu.toFixed(0)} ms vs ${floorCpu.toFixed(0)} ms (${(cpu / floorCpu).toFixed(2)}x; target ≤ 1.5x); `
      + `median of ${runs}: ${list(conv.map((r) => r.wall))} s vs ${list(bare.map((r) => r.wall))} s`,
  }, mark);
}

module.exports = { fixedCost };
