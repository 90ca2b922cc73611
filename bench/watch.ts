// `npm run bench:watch`: `converge watch` measured from outside, against the emulator in its own process.
//   1. A watcher of N objects (KV secrets and 100 organizations) for C whole cycles at a short interval:
//      requests per cycle against the no-op plan's minimum, resident memory after warm-up and at the
//      end (growth), CPU per cycle (user + system of the watch process, from /proc).
//   2. Time from an out-of-band change to its report: mesh entries (blocking queries), p50 and p99;
//      KV secrets and organizations (the interval plus one plan).
//   3. Failover with three replicas on PostgreSQL state (a real server): SIGKILL of a holder to another
//      replica's lease-gained event.
// Environment: BENCH_WATCH_OBJECTS (2000), BENCH_WATCH_CYCLES (1000), BENCH_WATCH_MESH_CHANGES (100),
// BENCH_WATCH_FAILOVERS (5), BENCH_OUT (bench/watch-results.json), BENCH_WATCH_PARTS (all; `cycles`: part 1
// only, a short run for CPU figures, e.g. BENCH_WATCH_PARTS=cycles BENCH_WATCH_CYCLES=200),
// BENCH_WATCH_NODE_ARGS (node flags for the watch process of part 1 only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`).
import { ChildProcess, spawn, spawnSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { startPostgres } from '../test/support/postgres';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { count, floor, noopPlan } = require('./floor') as { count: (p: unknown) => Record<string, number>; noopPlan: (o: object) => unknown;
  floor: (env: object, phases: unknown, parallelism: number) => Promise<{ cpuMs: number }> };

const root = path.resolve(__dirname, '..');
const cli = path.join(root, 'bin', 'converge');
const objects = Number(process.env.BENCH_WATCH_OBJECTS ?? 2000);
const cycles = Number(process.env.BENCH_WATCH_CYCLES ?? 1000);
const meshChanges = Number(process.env.BENCH_WATCH_MESH_CHANGES ?? 100);
const failovers = Number(process.env.BENCH_WATCH_FAILOVERS ?? 5);
const parts = process.env.BENCH_WATCH_PARTS ?? 'all';
if (!['all', 'cycles'].includes(parts)) throw new Error(`BENCH_WATCH_PARTS must be all or cycles (got ${parts})`);
const orgs = 100;
const kv = objects - orgs;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'converge-bench-watch-'));
const baseEnv = {
  PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION: '20',
  CONVERGE_STATE_KEY: crypto.randomBytes(32).toString('hex'),
};

async function startEmulator(): Promise<{ env: Record<string, string>; stop: () => Promise<void> }> {
  const envFile = path.join(work, 'emulator.env');
  const p = spawn(cli, ['emulator', '--platform-port', '0', '--secrets-port', '0', '--mesh-port', '0', '--platform-rate-limit', '0',
    '--write-env', envFile], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...baseEnv } });
  for (let i = 0; i < 400 && !fs.existsSync(envFile); i++) await sleep(25);
  const env = Object.fromEntries(fs.readFileSync(envFile, 'utf8').trim().split('\n').map((l) => l.split(/=(.*)/s).slice(0, 2) as [string, string]));
  return { env, stop: () => new Promise<void>((r) => { p.on('close', () => r()); p.kill('SIGTERM'); }) };
}

function run(args: string[], env: NodeJS.ProcessEnv): void {
  const r = spawnSync(cli, args, { env, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0 && r.status !== 2) throw new Error(`converge ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-2000)}`);
}

/** A `converge watch --json` process whose events are timestamped as they arrive. */
function watch(args: string[], env: NodeJS.ProcessEnv, nodeArgs?: string[]) {
  const proc: ChildProcess = nodeArgs ? spawn(process.execPath, [...nodeArgs, path.join(root, 'dist', 'cli', 'main.js'), 'watch', '--json', ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] })
    : spawn(cli, ['watch', '--json', ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const events: { at: number; e: Record<string, any> }[] = [];
  const waiters = new Set<() => void>();
  let partial = '';
  proc.stdout!.on('data', (d: Buffer) => {
    const at = performance.now();
    partial += d;
    const lines = partial.split('\n');
    partial = lines.pop()!;
    for (const l of lines) if (l.trim()) events.push({ at, e: JSON.parse(l) });
    for (const w of [...waiters]) w();
  });
  proc.on('close', () => { for (const w of [...waiters]) w(); });
  const waitFor = (match: (e: Record<string, any>) => boolean, from = 0, timeoutMs = 600_000) => new Promise<{ at: number; e: Record<string, any> }>((resolve, reject) => {
    const check = () => {
      const f = events.slice(from).find((x) => match(x.e));
      if (f) { waiters.delete(check); clearTimeout(t); resolve(f); } else if (proc.exitCode !== null) { waiters.delete(check); clearTimeout(t); reject(new Error(`watch exited ${proc.exitCode}`)); }
    };
    const t = setTimeout(() => { waiters.delete(check); reject(new Error(`timeout waiting for an event; last: ${JSON.stringify(events.slice(-3))}`)); }, timeoutMs);
    waiters.add(check);
    check();
  });
  const stop = (signal: NodeJS.Signals = 'SIGTERM') => new Promise<number | null>((r) => { if (proc.exitCode !== null) r(proc.exitCode); proc.on('close', r); proc.kill(signal); });
  return { proc, events, waitFor, stop };
}

/** Resident memory (MB) and CPU seconds (user + system) of a process, from /proc. */
function usage(pid: number): { rssMb: number; cpuS: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)![1]);
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { rssMb: rssKb / 1024, cpuS: ticks / 100 };
}


/** CPU per cycle of some cycle events: how many, p50, mean. */
function cpuSummary(events: Record<string, any>[]): { cycles: number; cpuMsP50?: number; cpuMsMean?: number } {
  const ms = events.map((e) => e.cpuMs as number).filter((x) => typeof x === 'number');
  if (!ms.length) return { cycles: events.length };
  return { cycles: events.length, cpuMsP50: pct(ms, 50), cpuMsMean: +(ms.reduce((a, b) => a + b, 0) / ms.length).toFixed(1) };
}

const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]; };

function synthMesh(dir: string, services: number): void {
  const script = `const { App, TerraformStack } = require('cdktf'); const c = require(${JSON.stringify(path.join(root, 'dist'))});
const app = new App({ outdir: ${JSON.stringify(dir)} }); const s = new TerraformStack(app, 'meshbench');
for (let i = 0; i < ${services}; i++) new c.mesh.ServiceDefaults(s, 'svc' + i, { name: 'svc-' + i, protocol: 'http' });
app.synth();`;
  const r = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
}

function synthStacks(dir: string, names: string[]): void {
  const script = `const { App, TerraformStack } = require('cdktf'); const c = require(${JSON.stringify(path.join(root, 'dist'))});
const app = new App({ outdir: ${JSON.stringify(dir)} });
for (const n of ${JSON.stringify(names)}) new c.secrets.KvSecret(new TerraformStack(app, n), 'kv', { path: 'failover/' + n, data: { v: n } });
app.synth();`;
  const r = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
}

async function main(): Promise<void> {
  const results: Record<string, unknown> = { objects, cycles, machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, load ${os.loadavg()[0].toFixed(1)}` };
  const emu = await startEmulator();
  const env: Record<string, string | undefined> = { ...baseEnv, ...emu.env, CONVERGE_DIR: path.join(work, '.converge') };
  try {
    // 1. A long run of whole cycles.
    const big = path.join(work, 'big');
    const g = spawnSync(process.execPath, [path.join(__dirname, 'gen-app.js'), String(kv), String(orgs), big], { cwd: root, encoding: 'utf8' });
    if (g.status !== 0) throw new Error(g.stderr);
    run(['apply', '--synth-dir', big, '--auto-approve'], env);
    const minimum = Object.values(count(noopPlan({ kv, orgs, accountOrgs: orgs, prefix: 'bench' }))).reduce((a, b) => a + b, 0);
    const nodeArgs = process.env.BENCH_WATCH_NODE_ARGS?.split(' ').filter(Boolean);
    const w = watch(['--synth-dir', big, '--interval', '0.01'], env, nodeArgs);
    // bin/converge execs node: once the watcher has spoken, its pid is node's.
    await w.waitFor((e) => e.event === 'started');
    const pid = w.proc.pid!;
    const warm = Math.min(100, Math.floor(cycles / 10));
    const full = (e: Record<string, any>) => e.event === 'cycle' && e.scope === 'full' && e.outcome === 'ok';
    const nth = async (n: number) => { while (w.events.filter((x) => full(x.e)).length < n) await w.waitFor(full, w.events.length); };
    await nth(warm + 1);
    const atWarm = usage(pid);
    const rss: number[] = [];
    for (let c = warm + 1; c <= cycles; c += Math.max(1, Math.floor(cycles / 50))) { await nth(c); rss.push(usage(pid).rssMb); }
    await nth(cycles);
    const atEnd = usage(pid);
    await w.stop();
    const fulls = w.events.filter((x) => full(x.e)).map((x) => x.e);
    const steady = fulls.slice(1);
    const perCycle = steady.map((e) => e.requests as number);
    results.longRun = {
      minimumRequestsPerCycle: minimum, requestsPerCycle: { min: Math.min(...perCycle), max: Math.max(...perCycle) },
      cycleMs: { p50: pct(steady.map((e) => e.ms), 50), p99: pct(steady.map((e) => e.ms), 99) },
      rssMb: { afterWarmUp: +atWarm.rssMb.toFixed(1), end: +atEnd.rssMb.toFixed(1), max: +Math.max(...rss).toFixed(1), growthPct: +(((atEnd.rssMb - atWarm.rssMb) / atWarm.rssMb) * 100).toFixed(1) },
      cpuMsPerCycle: +(((atEnd.cpuS - atWarm.cpuS) * 1000) / (cycles - warm)).toFixed(2),
      cpuUsPerObjectPerCycle: +((((atEnd.cpuS - atWarm.cpuS) * 1e6) / (cycles - warm)) / objects).toFixed(1),
      // From the cycle events (the process's CPU while each cycle ran): the first cycle diffs every
      // object; a cycle where nothing changed diffs none (what it read is as it was).
      firstCycle: { cpuMs: fulls[0].cpuMs, diffed: fulls[0].diffed },
      unchangedCycles: cpuSummary(steady.filter((e) => e.diffed === 0)),
      cyclesWithDiffs: cpuSummary(steady.filter((e) => e.diffed > 0)),
    };
    // The floor of a cycle: a bare client sending the same requests (bench/floor.js), CPU per cycle of this process.
    const floorRuns = Math.max(3, Math.min(20, Math.floor(cycles / 10)));
    let floorCpuMs = 0;
    for (let i = 0; i < floorRuns; i++) floorCpuMs += (await floor(emu.env, noopPlan({ kv, orgs, accountOrgs: orgs, prefix: 'bench' }), 10)).cpuMs;
    (results.longRun as Record<string, unknown>).floorCpuMsPerCycle = +(floorCpuMs / floorRuns).toFixed(1);

    if (parts === 'all') {
      // 2a. Mesh: blocking queries.
      const mesh = path.join(work, 'mesh');
      synthMesh(mesh, 20);
      run(['apply', '--synth-dir', mesh, '--auto-approve'], env);
      const m = watch(['--synth-dir', mesh, '--interval', '3600'], env);
      await m.waitFor((e) => e.event === 'cycle');
      const lat: number[] = [];
      for (let i = 0; i < meshChanges; i++) {
        const svc = `svc-${i % 20}`;
        const from = m.events.length;
        const protocol = Math.floor(i / 20) % 2 === 0 ? 'grpc' : 'http';
        const r = await fetch(`${env.MESH_HTTP_ADDR}/v1/config`, { method: 'PUT', headers: { 'x-mesh-token': env.MESH_HTTP_TOKEN! }, body: JSON.stringify({ Kind: 'service-defaults', Name: svc, Protocol: protocol }) });
        const t0 = performance.now();
        if (r.status !== 200) throw new Error(`PUT ${svc}: ${r.status}`);
        const seen = await m.waitFor((e) => (e.event === 'drift' || e.event === 'drift-resolved') && e.address === `svc${i % 20}`, from, 30_000);
        lat.push(seen.at - t0);
        await sleep(20);
      }
      await m.stop();
      results.meshChangeToReportMs = { changes: lat.length, p50: +pct(lat, 50).toFixed(1), p99: +pct(lat, 99).toFixed(1), max: +Math.max(...lat).toFixed(1) };

      // 2b. KV and organizations: the interval plus one whole plan of the N-object stack.
      const intervalS = 5;
      const k = watch(['--synth-dir', big, '--interval', String(intervalS)], env);
      await k.waitFor(full);
      const kvLat: number[] = [];
      for (let i = 0; i < 4; i++) {
        await sleep(Math.random() * intervalS * 1000);
        const from = k.events.length;
        const isOrg = i % 2 === 1;
        const r = isOrg
          ? await fetch(`${env.PLATFORM_ADDRESS}/api/v2/organizations/bench-org-${i}`, { method: 'PATCH', headers: { authorization: `Bearer ${env.PLATFORM_TOKEN}`, 'content-type': 'application/vnd.api+json' },
            body: JSON.stringify({ data: { type: 'organizations', attributes: { email: `changed${i}@bench.io` } } }) })
          : await fetch(`${env.SECRETS_ADDR}/v1/secret/data/bench/app${i}/s${i}`, { method: 'POST', headers: { 'x-secrets-token': env.SECRETS_TOKEN! }, body: JSON.stringify({ data: { user: 'x', n: 'y' } }) });
        const t0 = performance.now();
        if (r.status >= 300) throw new Error(`out-of-band change: ${r.status}`);
        const seen = await k.waitFor((e) => e.event === 'drift' && e.address === (isOrg ? `org${i}` : `kv${i}`), from, 120_000);
        kvLat.push(seen.at - t0);
      }
      const plans = k.events.filter((x) => full(x.e)).map((x) => x.e.ms as number);
      await k.stop();
      results.kvOrgChangeToReportMs = { intervalMs: intervalS * 1000, wholePlanMsP50: pct(plans, 50), observed: kvLat.map((x) => Math.round(x)), max: Math.round(Math.max(...kvLat)) };
    }
  } finally {
    await emu.stop();
  }
  if (parts === 'all') await failover(results);
  fs.rmSync(work, { recursive: true, force: true });
  results.loadAtEnd = +os.loadavg()[0].toFixed(1);
  // A short run (part 1 only) does not replace the full run's figures unless asked to.
  const out = process.env.BENCH_OUT ?? (parts === 'all' ? path.join(__dirname, 'watch-results.json') : undefined);
  if (out) fs.writeFileSync(out, JSON.stringify(results, null, 2) + '\n');
  process.stdout.write(JSON.stringify(results, null, 2) + '\n');
}

async function failover(results: Record<string, unknown>): Promise<void> {
  // 3. Failover with three replicas on PostgreSQL state.
  const pg = await startPostgres();
  const emu2 = await startEmulator();
  try {
    const env2 = { ...baseEnv, ...emu2.env, CONVERGE_STATE: pg.url };
    const stacks = ['f1', 'f2', 'f3', 'f4'];
    const dir = path.join(work, 'failover');
    synthStacks(dir, stacks);
    run(['apply', '--synth-dir', dir, '--stack', '*', '--auto-approve'], env2);
    const heartbeatS = 1;
    const replicas = [0, 1, 2].map(() => watch(['--synth-dir', dir, '--interval', '0.5', '--heartbeat', String(heartbeatS)], env2));
    const took: number[] = [];
    for (let f = 0; f < failovers; f++) {
      await sleep(heartbeatS * 3000);
      const holding = replicas.map((r) => { const h = new Set<string>(); for (const { e } of r.events) { if (e.event === 'lease-gained') h.add(e.stack); if (e.event === 'lease-lost') h.delete(e.stack); } return h; });
      const victim = holding.findIndex((h) => h.size > 0 && replicas[holding.indexOf(h)].proc.exitCode === null);
      const stack = [...holding[victim]][0];
      const marks = replicas.map((r) => r.events.length);
      const t0 = performance.now();
      await replicas[victim].stop('SIGKILL');
      const got = await Promise.any(replicas.map((r, i) => (i === victim ? Promise.reject(new Error('victim')) : r.waitFor((e) => e.event === 'lease-gained' && e.stack === stack, marks[i], 60_000))));
      took.push(got.at - t0);
      replicas[victim] = watch(['--synth-dir', dir, '--interval', '0.5', '--heartbeat', String(heartbeatS)], env2);
    }
    await Promise.all(replicas.map((r) => r.stop()));
    results.failoverMs = { heartbeatMs: heartbeatS * 1000, promisedMs: 2 * heartbeatS * 1000, observed: took.map((x) => Math.round(x)), max: Math.round(Math.max(...took)) };
  } finally {
    await emu2.stop();
    await pg.stop();
  }
}

main().catch((e) => { process.stderr.write(`${(e as Error).stack}\n`); process.exit(1); });
