#!/usr/bin/env node
// Where converge's CPU goes, by module: folds a V8 .cpuprofile (`node --cpu-prof`) by script URL.
//
//   node bench/profile-by-module.js fold FILE.cpuprofile [--top 25] [--functions 25] [--before-first-request]
//     self time per module (dist/<file>, node_modules/<package>, node:<internal>, (gc), (program)),
//     and with --functions the top functions by self time; --before-first-request folds only what ran
//     before the process wrote its first request (its start-up).
//   node bench/profile-by-module.js run [KV=10000] [--synth-dir DIR] [--keep DIR] [--top 25] [--functions 25] [--no-prof] [--plans N] [--cli MAIN.js] [--first-request N] [--node-flag F]
//     the bench's L = 0 section under the profiler: synthesizes KV secrets + 100 organizations
//     (bench/gen-app.js, unless --synth-dir), starts `bin/converge emulator --latency-ms 0`, then
//     the floor's first apply, converge's first apply, converge's no-op plan and the floor's no-op plan
//     (bench/floor.js), as bench/run.js runs them; converge runs as
//     `node --cpu-prof dist/cli/main.js --quiet plan|apply --synth-dir DIR`. Prints, per step, the CLI
//     process's user + system CPU per object (from CONVERGE_STATS_FILE, process start included; the
//     profiler adds a few percent; --no-prof runs without it; --plans N runs the no-op plan N times, the
//     first one profiled, and gives the least CPU), the floor's, and the fold of the profile (also of the plan's
//     start-up, before its first request). --first-request N: the time from process start to the first request of
//     a no-op plan through a proxy (median of N), as bench/run.js section 3. --cli: another build's main.js.
//   node bench/profile-by-module.js compare OTHER/dist/cli/main.js [KV=10000] --synth-dir DIR [--rounds 6]
//     no-op plans alternating between this build and another one (e.g. main's, built elsewhere) after one
//     first apply, so that the machine's load falls on both alike: least and median CPU per object of each.
'use strict';
const { spawn, spawnSync } = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');

const root = path.resolve(__dirname, '..');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A script URL as a short module name: the file under dist/ or lib/, the package under node_modules, node's own. */
function moduleOf(url, functionName) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  let u = url.replace(/^file:\/\//, '');
  const nm = u.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = u.slice(nm + '/node_modules/'.length).split('/');
    return `node_modules/${rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  if (u.startsWith(root + '/')) return u.slice(root.length + 1);
  if (u.startsWith('node:')) return u;
  return u;
}

/**
 * Self time (ms) per module and per function of one .cpuprofile; with `beforeFirstRequest`, only the
 * samples taken before the process first wrote a request (undici's `writeH1`): its start-up.
 */
function fold(file, { beforeFirstRequest = false } = {}) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  let end = profile.samples.length;
  if (beforeFirstRequest) {
    const parent = new Map();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const writes = new Set();
    for (const n of profile.nodes) {
      if (n.callFrame.functionName !== 'writeH1') continue;
      writes.add(n.id);
    }
    const underWrite = (id) => { for (let x = id; x !== undefined; x = parent.get(x)) if (writes.has(x)) return true; return false; };
    const first = profile.samples.findIndex(underWrite);
    if (first >= 0) end = first;
  }
  const selfUs = new Map();
  for (let i = 0; i < end; i++) {
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const modules = new Map();
  const functions = new Map();
  let total = 0;
  for (const [id, us] of selfUs) {
    const { callFrame: cf } = byId.get(id);
    const mod = moduleOf(cf.url, cf.functionName);
    total += us;
    modules.set(mod, (modules.get(mod) ?? 0) + us);
    const fn = `${cf.functionName || '(anonymous)'} ${mod}:${cf.lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + us);
  }
  const sorted = (m) => [...m].sort((a, b) => b[1] - a[1]).map(([k, us]) => [k, us / 1000]);
  return { totalMs: total / 1000, modules: sorted(modules), functions: sorted(functions) };
}

/** The fold as text; `(idle)` (waiting for I/O) is not CPU and is reported apart. */
function report(file, { top = 25, functions = 0, beforeFirstRequest = false } = {}) {
  const f = fold(file, { beforeFirstRequest });
  const idle = f.modules.find(([m]) => m === '(idle)')?.[1] ?? 0;
  const busy = f.totalMs - idle;
  const lines = [`${path.basename(file)}${beforeFirstRequest ? ', before its first request' : ''}: ${busy.toFixed(0)} ms sampled on CPU (${idle.toFixed(0)} ms idle)`];
  for (const [m, ms] of f.modules.filter(([m]) => m !== '(idle)').slice(0, top)) {
    lines.push(`  ${ms.toFixed(1).padStart(8)} ms ${((100 * ms) / busy).toFixed(1).padStart(5)} %  ${m}`);
  }
  if (functions) {
    lines.push('  top functions by self time:');
    for (const [fn, ms] of f.functions.filter(([k]) => !k.startsWith('(idle)')).slice(0, functions)) lines.push(`  ${ms.toFixed(1).padStart(8)} ms  ${fn}`);
  }
  return lines.join('\n');
}

function option(args, name, fallback) {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
}

async function startEmulator(dir) {
  const envFile = path.join(dir, 'emulator.env');
  const p = spawn(path.join(root, 'bin', 'converge'), ['emulator', '--platform-port', '0', '--secrets-port', '0', '--mesh-port', '0',
    '--latency-ms', '0', '--env-file', envFile], { stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; i < 400 && !fs.existsSync(envFile); i++) await sleep(25);
  const env = Object.fromEntries(fs.readFileSync(envFile, 'utf8').trim().split('\n').map((l) => l.split(/=(.*)/s).slice(0, 2)));
  return { env, stop: () => new Promise((r) => { p.on('close', r); p.kill('SIGTERM'); }) };
}

/** One profiled converge command; returns its CPU (ms) from the stats file and the profile's path. */
let cliMain = path.join(root, 'dist', 'cli', 'main.js');
let nodeFlags = [];

function profiled(name, args, env, profDir, prof = true) {
  const stats = path.join(profDir, `${name}.stats.json`);
  const r = spawnSync(process.execPath, [...nodeFlags, ...(prof ? ['--cpu-prof', '--cpu-prof-dir', profDir, '--cpu-prof-name', `${name}.cpuprofile`] : []),
    cliMain, '--quiet', ...args], { env: { ...env, CONVERGE_STATS_FILE: stats }, stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0 && r.status !== 2) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr.toString().slice(-2000)}`);
  const s = JSON.parse(fs.readFileSync(stats, 'utf8'));
  return { cpuMs: s.cpuUserMs + s.cpuSystemMs, requests: s.requests, profile: prof ? path.join(profDir, `${name}.cpuprofile`) : undefined };
}

/**
 * From process start (spawn) to the first bytes an API receives, through a proxy in front of each API
 * (bench/support.js), as bench/run.js section 3 times it: `runs` no-op plans (median, and each), and a bare
 * `node` loading undici and sending one request, spawned the same way.
 */
async function firstRequest(env, common, runs) {
  const { firstRequestProxy } = require('./support');
  const proxies = {};
  for (const key of ['SECRETS_ADDR', 'PLATFORM_ADDRESS', 'MESH_HTTP_ADDR']) proxies[key] = await firstRequestProxy(env[key]);
  const viaProxy = { ...env, ...Object.fromEntries(Object.entries(proxies).map(([k, p]) => [k, p.url])) };
  const first = () => Object.values(proxies).map((p) => p.firstAt).filter((x) => x !== undefined).reduce((a, b) => (a < b ? a : b), undefined);
  const spawnTimed = (cmd, argv, e) => new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const p = spawn(cmd, argv, { env: e, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => { err += d; });
    p.on('close', (status) => (status === 0 || status === 2 ? resolve(t0) : reject(new Error(`${argv.join(' ')} exited ${status}: ${err.slice(-2000)}`))));
  });
  const conv = [];
  const bare = [];
  try {
    for (let i = 0; i < runs; i++) {
      Object.values(proxies).forEach((p) => p.reset());
      await sleep(1100);
      const t0 = await spawnTimed(process.execPath, [...nodeFlags, cliMain, '--quiet', 'plan', ...common], viaProxy);
      conv.push(Number(first() - t0) / 1e6);
      Object.values(proxies).forEach((p) => p.reset());
      const script = `require('undici').request(process.env.SECRETS_ADDR + '/v1/sys/health').then((r) => r.body.text())`;
      const b0 = await spawnTimed(process.execPath, ['-e', script], { ...viaProxy, NODE_PATH: path.join(root, 'node_modules') });
      bare.push(Number(first() - b0) / 1e6);
    }
  } finally {
    await Promise.all(Object.values(proxies).map((p) => p.close()));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return `process start to first request (no-op plan), median of ${runs}: ${median(conv).toFixed(0)} ms (${conv.map((x) => x.toFixed(0)).join(', ')}); `
    + `bare node + undici ${median(bare).toFixed(0)} ms (${bare.map((x) => x.toFixed(0)).join(', ')}); load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`;
}

async function run(args) {
  const { floor, noopPlan, createAll } = require('./floor');
  const kv = Number(args.find((a) => /^\d+$/.test(a)) ?? 10000);
  cliMain = path.resolve(option(args, '--cli', cliMain)); // another build's dist/cli/main.js, to compare
  nodeFlags = args.flatMap((a, i) => (args[i - 1] === '--node-flag' ? [a] : [])); // e.g. --node-flag --max-semi-space-size=32
  const orgs = 100;
  const objects = kv + orgs;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'converge-profile-'));
  const profDir = option(args, '--keep', path.join(dir, 'profiles'));
  fs.mkdirSync(profDir, { recursive: true });
  let synthDir = option(args, '--synth-dir');
  if (!synthDir) {
    synthDir = path.join(dir, 'synth');
    spawnSync(process.execPath, ['--max-old-space-size=4096', path.join(__dirname, 'gen-app.js'), String(kv), String(orgs), synthDir], { stdio: 'inherit' });
  }
  const emu = await startEmulator(dir);
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...emu.env, CONVERGE_DIR: path.join(dir, '.converge'),
    CONVERGE_STATE_KEY: crypto.randomBytes(32).toString('hex') };
  const common = ['--synth-dir', synthDir, '--parallelism', '10'];
  const prof = !args.includes('--no-prof');
  const opts = { top: Number(option(args, '--top', 25)), functions: Number(option(args, '--functions', 0)) };
  const out = [`load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}, ${kv} KV + ${orgs} organizations, L = 0, P = 10`];
  try {
    const fa = await floor(emu.env, createAll({ kv, orgs, accountOrgs: 0, prefix: 'floor', orgPrefix: 'floor-org' }), 10);
    await sleep(1100);
    const apply = profiled('apply', ['apply', ...common, '--auto-approve'], env, profDir, prof);
    await sleep(1100);
    // --plans N: the no-op plan N times (the least CPU is reported: the machine's load only adds to it).
    const plans = [];
    for (let i = 0; i < Number(option(args, '--plans', 1)); i++) {
      if (i) await sleep(1100);
      plans.push(profiled(i ? `plan-${i}` : 'plan', ['plan', ...common], env, profDir, prof && i === 0));
    }
    const plan = { ...plans[0], cpuMs: Math.min(...plans.map((p) => p.cpuMs)) };
    await sleep(1100);
    const fp = await floor(emu.env, noopPlan({ kv, orgs, accountOrgs: 2 * orgs, prefix: 'bench' }), 10);
    out.push(`apply (all creates): ${apply.requests} requests, CPU ${(apply.cpuMs / objects).toFixed(3)} ms/object (floor ${(fa.cpuMs / objects).toFixed(3)})`);
    out.push(`plan (no changes):   ${plan.requests} requests, CPU ${(plan.cpuMs / objects).toFixed(3)} ms/object (floor ${(fp.cpuMs / objects).toFixed(3)})`
      + (plans.length > 1 ? `; least of ${plans.length}: ${plans.map((p) => (p.cpuMs / objects).toFixed(3)).join(', ')}` : ''));
    out.push(`load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; profiles in ${profDir}`);
    const firstRuns = Number(option(args, '--first-request', 0));
    if (firstRuns) out.push(await firstRequest(env, common, firstRuns));
    if (prof) out.push(report(apply.profile, opts), report(plan.profile, opts), report(plan.profile, { ...opts, beforeFirstRequest: true }));
  } finally {
    await emu.stop();
    if (!args.includes('--keep')) fs.rmSync(dir, { recursive: true, force: true });
    else fs.rmSync(path.join(dir, '.converge'), { recursive: true, force: true });
  }
  process.stdout.write(out.join('\n') + '\n');
}

/**
 * Two builds side by side: one first apply (with this build), then no-op plans alternating between
 * this build and OTHER (another build's dist/cli/main.js, e.g. the main branch's), `rounds` each,
 * so that the machine's load falls on both alike. Prints the CPU per object of each plan, least and median.
 */
async function compare(args) {
  const other = path.resolve(args[0]);
  const kv = Number(args.slice(1).find((a) => /^\d+$/.test(a)) ?? 10000);
  const rounds = Number(option(args, '--rounds', 6));
  const synthDir = option(args, '--synth-dir');
  if (!synthDir) throw new Error('compare needs --synth-dir DIR (node bench/gen-app.js KV 100 DIR)');
  const objects = kv + 100;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'converge-compare-'));
  const emu = await startEmulator(dir);
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...emu.env, CONVERGE_DIR: path.join(dir, '.converge'),
    CONVERGE_STATE_KEY: crypto.randomBytes(32).toString('hex') };
  const common = ['--synth-dir', synthDir, '--parallelism', '10'];
  const builds = [['this build', cliMain], [other, other]];
  try {
    const apply = profiled('apply', ['apply', ...common, '--auto-approve'], env, dir, false);
    const perBuild = builds.map(() => []);
    for (let i = 0; i < rounds; i++) {
      for (let b = 0; b < builds.length; b++) {
        await sleep(1100);
        cliMain = builds[b][1];
        perBuild[b].push(profiled(`plan-${b}-${i}`, ['plan', ...common], env, dir, false).cpuMs / objects);
      }
    }
    cliMain = builds[0][1];
    const lines = [`${kv} KV + 100 organizations, L = 0: first apply (this build) CPU ${(apply.cpuMs / objects).toFixed(3)} ms/object; no-op plans, ${rounds} each, alternating:`];
    builds.forEach(([name], b) => {
      const xs = [...perBuild[b]].sort((x, y) => x - y);
      lines.push(`  ${name}: least ${xs[0].toFixed(3)}, median ${xs[Math.floor(xs.length / 2)].toFixed(3)} ms/object (${perBuild[b].map((x) => x.toFixed(3)).join(', ')})`);
    });
    lines.push(`load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    await emu.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const [cmd, ...rest] = process.argv.slice(2);
if (cmd === 'fold' && rest[0]) {
  process.stdout.write(report(rest[0], { top: Number(option(rest, '--top', 25)), functions: Number(option(rest, '--functions', 0)),
    beforeFirstRequest: rest.includes('--before-first-request') }) + '\n');
} else if (cmd === 'compare' && rest[0]) {
  compare(rest).catch((e) => { process.stderr.write(`${e.stack}\n`); process.exit(1); });
} else if (cmd === 'run') {
  run(rest).catch((e) => { process.stderr.write(`${e.stack}\n`); process.exit(1); });
} else {
  process.stderr.write('usage: node bench/profile-by-module.js fold FILE.cpuprofile [--top N] [--functions N] [--before-first-request]\n'
    + '       node bench/profile-by-module.js run [KV] [--synth-dir DIR] [--keep DIR] [--top N] [--functions N] [--no-prof] [--plans N] [--cli MAIN.js] [--first-request N] [--node-flag F]\n'
    + '       node bench/profile-by-module.js compare OTHER/dist/cli/main.js [KV] --synth-dir DIR [--rounds 6]\n');
  process.exit(64);
}
