#!/usr/bin/env node
// `npm run bench`: converge (the real CLI, `--synth-dir`, process start included) against the emulator
// in its own process with latency L, next to the minimum requests the APIs need for the same operation
// and the FLOOR: a bare undici client sending exactly those minimum requests at the same parallelism,
// against the same emulator in the same run (bench/floor.js). Writes bench/results.json, prints a table.
//
// Rows: for each KV size N (100 organizations each): first apply and no-op plan at L = 20 ms, P = 10;
// then the no-op plan of the largest stack at L = 0 for engine CPU per object. Peak RSS per run.
//   node bench/run.js            N = 2000 and 10000 (5 to 8 minutes on 2 shared cores, today's engine)
//   node bench/run.js --quick    N = 2000 only (about a minute)
// Environment: BENCH_KV (e.g. "2000,10000"), BENCH_ORGS (100), BENCH_LATENCY (20), BENCH_PARALLELISM (10),
// BENCH_OUT (bench/results.json).
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { floor, noopPlan, createAll, count, PLATFORM_LIMIT } = require('./floor');

const root = path.resolve(__dirname, '..');
const cli = path.join(root, 'bin', 'converge');
const quick = process.argv.includes('--quick');
const sizes = (process.env.BENCH_KV ?? (quick ? '2000' : '2000,10000')).split(',').filter(Boolean).map(Number);
const orgs = Number(process.env.BENCH_ORGS ?? 100);
const latency = Number(process.env.BENCH_LATENCY ?? 20);
const parallelism = Number(process.env.BENCH_PARALLELISM ?? 10);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Runs a command under /usr/bin/time when present; returns wall seconds and peak RSS (MB). */
function timed(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const tf = path.join(os.tmpdir(), `bench-time-${process.pid}-${Math.random()}`);
    const useTime = fs.existsSync('/usr/bin/time');
    const p = useTime ? spawn('/usr/bin/time', ['-f', '%M', '-o', tf, cmd, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] })
      : spawn(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => { err += d; });
    p.on('close', (status) => {
      const wall = Number(process.hrtime.bigint() - t0) / 1e9;
      const rssMb = useTime ? Number(fs.readFileSync(tf, 'utf8').trim().split('\n').pop()) / 1024 : NaN;
      fs.rmSync(tf, { force: true });
      if (status !== 0 && status !== 2) reject(new Error(`${args.join(' ')} exited ${status}: ${err.slice(-2000)}`));
      else resolve({ wall, rssMb });
    });
  });
}

async function startEmulator(latencyMs, dir, dataDir) {
  const envFile = path.join(dir, 'emulator.env');
  fs.rmSync(envFile, { force: true });
  const p = spawn(cli, ['emulator', '--platform-port', '0', '--secrets-port', '0', '--mesh-port', '0',
    '--latency-ms', String(latencyMs), '--env-file', envFile, ...(dataDir ? ['--data-dir', dataDir] : [])], { stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; i < 400 && !fs.existsSync(envFile); i++) await sleep(25);
  const env = Object.fromEntries(fs.readFileSync(envFile, 'utf8').trim().split('\n').map((l) => l.split(/=(.*)/s).slice(0, 2)));
  return { env, stop: () => new Promise((r) => { p.on('close', r); p.kill('SIGTERM'); }) };
}

/** One converge command: wall time, requests per API, engine CPU and peak RSS. */
async function converge(args, env) {
  const statsFile = path.join(env.CONVERGE_DIR, `stats-${Date.now()}.json`);
  fs.mkdirSync(env.CONVERGE_DIR, { recursive: true });
  const { wall, rssMb } = await timed(cli, ['--quiet', ...args], { ...env, CONVERGE_STATS_FILE: statsFile });
  const s = JSON.parse(fs.readFileSync(statsFile, 'utf8'));
  return { wall, rssMb: Number.isNaN(rssMb) ? s.maxRssKb / 1024 : rssMb, requests: s.requests, byApi: s.byApi, retries: s.retries, cpuMs: s.cpuUserMs + s.cpuSystemMs };
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

async function main() {
  const results = { machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memGb: Math.round(os.totalmem() / 2 ** 30), node: process.version },
    parallelism, rows: [] };
  const rows = [];
  const record = (row) => {
    results.rows.push(row);
    const f = (x, d = 2) => (x === undefined || x === null || Number.isNaN(x) ? '-' : x.toFixed(d));
    rows.push([row.kv, row.orgs, row.latency, row.step, f(row.wall), row.requests ?? '-', row.minimum ?? '-', f(row.bound), f(row.floor),
      row.floor ? f(row.wall / row.floor) : '-', row.cpuMsPerObject === undefined ? '-' : f(row.cpuMsPerObject, 3), f(row.rssMb, 0)]);
    process.stderr.write(`${row.kv} KV + ${row.orgs} orgs${row.latency === undefined ? '' : `, L=${row.latency}`}: ${row.step}: ${f(row.wall)} s, ${row.requests ?? '-'} requests`
      + `${row.floor ? ` (floor ${f(row.floor)} s for ${row.minimum})` : ''}\n`);
  };
  const synths = {};
  for (const kv of sizes) {
    const synthDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-synth-'));
    const s = await timed(process.execPath, [path.join(__dirname, 'gen-app.js'), String(kv), String(orgs), synthDir], process.env);
    synths[kv] = synthDir;
    record({ kv, orgs, step: 'synth', wall: s.wall, rssMb: s.rssMb });
  }

  const largest = Math.max(...sizes);
  let kept;
  for (const kv of sizes) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-run-'));
    // The largest stack's emulator keeps its data (--data-dir): the L = 0 plan below reuses it, with no second apply.
    const dataDir = kv === largest ? path.join(dir, 'emulator-data') : undefined;
    const emu = await startEmulator(latency, dir, dataDir);
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...emu.env, CONVERGE_DIR: path.join(dir, '.converge'), CONVERGE_STATE_KEY: 'bench' };
    const common = ['--synth-dir', synths[kv], '--parallelism', String(parallelism)];
    try {
      // The floor's own objects (prefix floor/) are created first; converge's account then holds 100 more organizations.
      const createFloor = createAll({ kv, orgs, accountOrgs: 0, prefix: 'floor', orgPrefix: 'floor-org' });
      const fa = await floor(emu.env, createFloor, parallelism);
      await sleep(1100); // the platform's bucket refills
      const apply = await converge(['apply', ...common, '--auto-approve'], env);
      const applyMin = count(createAll({ kv, orgs, accountOrgs: orgs, prefix: 'bench', orgPrefix: 'bench-org' }));
      record({ kv, orgs, latency, step: 'apply (all creates)', ...apply, minimum: sum(applyMin), minimumByApi: applyMin,
        bound: bound(applyMin, latency), floor: fa.wall, floorRetries: fa.retries, cpuMsPerObject: apply.cpuMs / (kv + orgs) });
      await sleep(1100);
      const plan = await converge(['plan', ...common], env);
      await sleep(1100);
      const noop = noopPlan({ kv, orgs, accountOrgs: 2 * orgs, prefix: 'bench' });
      const fp = await floor(emu.env, noop, parallelism);
      const planMin = count(noop);
      record({ kv, orgs, latency, step: 'plan (no changes)', ...plan, minimum: sum(planMin), minimumByApi: planMin,
        bound: bound(planMin, latency), floor: fp.wall, floorRetries: fp.retries, cpuMsPerObject: plan.cpuMs / (kv + orgs) });
    } finally {
      await emu.stop();
      if (dataDir) kept = { dir, dataDir, converge: env.CONVERGE_DIR };
      else fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  // Engine CPU: the largest stack's no-op plan with no latency, the same data and state served again at L = 0.
  const kv = largest;
  const dir = kept.dir;
  const emu = await startEmulator(0, dir, kept.dataDir);
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...emu.env, CONVERGE_DIR: kept.converge, CONVERGE_STATE_KEY: 'bench' };
  const common = ['--synth-dir', synths[kv], '--parallelism', String(parallelism)];
  try {
    await sleep(1100);
    const plan = await converge(['plan', ...common], env);
    await sleep(1100);
    const noop = noopPlan({ kv, orgs, accountOrgs: 2 * orgs, prefix: 'bench' });
    const fp = await floor(emu.env, noop, parallelism);
    const planMin = count(noop);
    record({ kv, orgs, latency: 0, step: 'plan (no changes)', ...plan, minimum: sum(planMin), minimumByApi: planMin,
      bound: bound(planMin, 0), floor: fp.wall, cpuMsPerObject: plan.cpuMs / (kv + orgs) });
  } finally {
    await emu.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  for (const d of Object.values(synths)) fs.rmSync(d, { recursive: true, force: true });

  fs.writeFileSync(process.env.BENCH_OUT ?? path.join(__dirname, 'results.json'), JSON.stringify(results, null, 2) + '\n');
  const head = ['KV', 'orgs', 'L ms', 'step', 'converge s', 'converge requests', 'minimum requests', 'bound s', 'floor s', 'converge / floor', 'CPU ms/object', 'RSS MB'];
  const table = [head, head.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
  process.stdout.write(`P = ${parallelism}; bound = max over APIs of (minimum x L / P, platform (minimum - 30) / 30); floor = bare undici client sending the minimum\n`);
  process.stdout.write(table + '\n');
  for (const r of results.rows.filter((x) => x.byApi)) process.stdout.write(`${r.kv} KV L=${r.latency} ${r.step}: converge ${fmtApi(r.byApi)}; minimum ${fmtApi(r.minimumByApi)}\n`);
}

main().catch((e) => { process.stderr.write(`bench failed: ${e.stack}\n`); process.exit(1); });
