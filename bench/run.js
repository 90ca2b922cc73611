#!/usr/bin/env node
// `npm run bench`: measures synth, plan and apply of N objects against the emulator (run in its own
// process with latency L), next to their lower bounds. Writes bench/results.json and prints a table.
// Environment: BENCH_SIZES (default 100,1000,10000), BENCH_LATENCIES (default 0,20),
// BENCH_PARALLELISM (default 10,50: Terraform's default and a wider one), BENCH_OUT (default bench/results.json).
'use strict';
const { spawn } = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { Pool } = require('undici');
const { mix } = require('./mix');

/** A random state key for the runs (the key rules require 32 random bytes). */
const BENCH_KEY = crypto.randomBytes(32).toString('hex');

const root = path.resolve(__dirname, '..');
const cli = path.join(root, 'bin', 'converge');
const list = (v, d) => (v ?? d).split(',').filter(Boolean).map(Number);
const sizes = list(process.env.BENCH_SIZES, '100,1000,10000');
const latencies = list(process.env.BENCH_LATENCIES, '0,20');
const parallelisms = list(process.env.BENCH_PARALLELISM, '10,50');

/** Runs a command under /usr/bin/time; returns wall seconds, peak RSS (MB) and its exit status. */
function timed(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const tf = path.join(os.tmpdir(), `bench-time-${process.pid}-${Math.random()}`);
    const p = spawn('/usr/bin/time', ['-f', '%M', '-o', tf, cmd, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => { err += d; });
    p.on('close', (status) => {
      const wall = Number(process.hrtime.bigint() - t0) / 1e9;
      const rssMb = Number(fs.readFileSync(tf, 'utf8').trim().split('\n').pop()) / 1024;
      fs.rmSync(tf, { force: true });
      if (status !== 0 && status !== 2) reject(new Error(`${args.join(' ')} exited ${status}: ${err.slice(-2000)}`));
      else resolve({ wall, rssMb });
    });
  });
}

async function startEmulator(latency, dir) {
  const envFile = path.join(dir, 'emulator.env');
  const p = spawn(cli, ['emulator', '--platform-port', '0', '--secrets-port', '0', '--mesh-port', '0',
    '--latency-ms', String(latency), '--env-file', envFile], { stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; i < 200 && !fs.existsSync(envFile); i++) await new Promise((r) => setTimeout(r, 50));
  const env = Object.fromEntries(fs.readFileSync(envFile, 'utf8').trim().split('\n').map((l) => l.split(/=(.*)/s).slice(0, 2)));
  return { env, stop: () => new Promise((r) => { p.on('close', r); p.kill('SIGTERM'); }) };
}

/** Runs one converge command, returning wall time, requests, engine CPU and peak RSS. */
async function converge(args, env) {
  const statsFile = path.join(env.CONVERGE_DIR, `stats-${Date.now()}.json`);
  fs.mkdirSync(env.CONVERGE_DIR, { recursive: true });
  const { wall, rssMb } = await timed(cli, ['--quiet', ...args], { ...env, CONVERGE_STATS_FILE: statsFile });
  const s = JSON.parse(fs.readFileSync(statsFile, 'utf8'));
  return { wall, rssMb, requests: s.requests, byApi: s.byApi, retries: s.retries, cpuMs: s.cpuUserMs + s.cpuSystemMs };
}

/** The same number of KV reads fired by a bare undici loop at the same parallelism: the emulator's own speed. */
async function bareLoop(env, requests, parallelism, n) {
  const pool = new Pool(env.SECRETS_ADDR, { connections: parallelism });
  const secrets = mix(n).secrets;
  let next = 0;
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: parallelism }, async () => {
    while (next < requests) {
      const i = next++;
      const res = await pool.request({ method: 'GET', path: `/v1/secret/data/bench/app${(i % secrets) % 100}/s${i % secrets}`, headers: { 'x-secrets-token': env.SECRETS_TOKEN } });
      await res.body.text();
    }
  }));
  await pool.close();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

/** Changes 10 % of the KV secrets behind converge's back. */
async function drift(env, n) {
  const pool = new Pool(env.SECRETS_ADDR, { connections: 20 });
  const secrets = mix(n).secrets;
  const targets = Array.from({ length: Math.round(secrets / 10) }, (_, k) => k * 10);
  let next = 0;
  await Promise.all(Array.from({ length: 20 }, async () => {
    while (next < targets.length) {
      const i = targets[next++];
      const res = await pool.request({ method: 'POST', path: `/v1/secret/data/bench/app${i % 100}/s${i}`,
        headers: { 'x-secrets-token': env.SECRETS_TOKEN, 'content-type': 'application/json' }, body: JSON.stringify({ data: { user: 'drifted', n: String(i) } }) });
      await res.body.text();
    }
  }));
  await pool.close();
}

async function main() {
  const results = { machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memGb: Math.round(os.totalmem() / 2 ** 30), node: process.version }, runs: [] };
  const rows = [];
  for (const n of sizes) {
    const synthDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-synth-'));
    const synth = await timed(process.execPath, [path.join(__dirname, 'gen-app.js'), String(n), synthDir], process.env);
    results.runs.push({ n, step: 'synth', wall: synth.wall, rssMb: synth.rssMb });
    rows.push([n, '-', '-', 'synth', synth.wall.toFixed(2), '-', '-', '-', '-', synth.rssMb.toFixed(0)]);
    for (const latency of latencies) {
      for (const parallelism of parallelisms) {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-run-'));
        const emu = await startEmulator(latency, dir);
        const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...emu.env, CONVERGE_DIR: path.join(dir, '.converge'), CONVERGE_STATE_KEY: BENCH_KEY };
        const common = ['--synth-dir', synthDir, '--parallelism', String(parallelism)];
        const steps = [
          ['apply (all creates)', ['apply', ...common, '--auto-approve']],
          ['plan (no changes)', ['plan', ...common]],
          ['plan --refresh=false', ['plan', ...common, '--refresh', 'false']],
          ['drift', null],
          ['plan (10 % drift)', ['plan', ...common]],
          ['apply (10 % drift)', ['apply', ...common, '--auto-approve']],
          ['destroy', ['destroy', ...common, '--auto-approve']],
        ];
        for (const [name, args] of steps) {
          if (!args) { await drift(emu.env, n); continue; }
          const r = await converge(args, env);
          // Lower bound: every request costs L and at most `parallelism` are in flight per API; platform
          // requests also cannot go faster than its published 30 per second.
          // converge runs `parallelism` operations per API: the busiest API bounds the run.
          const latencyBound = Math.max(0, ...Object.values(r.byApi ?? {}).map((q) => (q * latency) / 1000 / parallelism));
          const rateBound = (r.byApi.platform ?? 0) / 30;
          const bound = Math.max(latencyBound, rateBound);
          let bare = null;
          if (name === 'plan (no changes)') bare = await bareLoop(emu.env, r.requests, parallelism, n);
          const entry = { n, latency, parallelism, step: name, ...r, bound, bareLoopWall: bare, ratio: bound > 0 ? r.wall / bound : null,
            cpuMsPerObject: r.cpuMs / n };
          results.runs.push(entry);
          rows.push([n, latency, parallelism, name, r.wall.toFixed(2), r.requests, bound.toFixed(2), entry.ratio ? entry.ratio.toFixed(2) : '-',
            (r.cpuMs / n).toFixed(3), r.rssMb.toFixed(0), bare ? bare.toFixed(2) : '']);
          process.stderr.write(`${n} L=${latency} P=${parallelism} ${name}: ${r.wall.toFixed(2)} s, ${r.requests} requests\n`);
        }
        await emu.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
    fs.rmSync(synthDir, { recursive: true, force: true });
  }
  fs.writeFileSync(process.env.BENCH_OUT ?? path.join(__dirname, 'results.json'), JSON.stringify(results, null, 2));
  const head = ['N', 'L ms', 'P', 'step', 'wall s', 'requests', 'bound s', 'ratio', 'CPU ms/obj', 'RSS MB', 'bare loop s'];
  const table = [head, head.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
  process.stdout.write(table + '\n');
}

main().catch((e) => { process.stderr.write(`bench failed: ${e.stack}\n`); process.exit(1); });
