#!/usr/bin/env node
// The emulator's own speed: KV writes and reads per second, in memory and durable (`--data-dir`), with
// the emulator in its own process (`converge emulator`) and a bare undici Pool here.
// Each mode: seed N keys (timed: writes of new keys), then N writes over those keys (new versions,
// the store holding N keys) and 2N reads.
// Usage: node bench/emulator-throughput.js [N=10000] [connections=10]   (BENCH_OUT=file writes JSON)
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { Pool } = require('undici');

const N = Number(process.argv[2] ?? 10000);
const C = Number(process.argv[3] ?? 10);
const cli = path.join(__dirname, '..', 'bin', 'converge');

async function startEmulator(dataDir) {
  const envFile = path.join(os.tmpdir(), `emu-throughput-${process.pid}-${Date.now()}.env`);
  const args = ['emulator', '--platform-port', '0', '--secrets-port', '0', '--mesh-port', '0', '--env-file', envFile];
  if (dataDir) args.push('--data-dir', dataDir);
  const p = spawn(cli, args, { stdio: 'ignore' });
  while (!fs.existsSync(envFile)) await new Promise((r) => setTimeout(r, 50));
  const env = Object.fromEntries(fs.readFileSync(envFile, 'utf8').trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  fs.rmSync(envFile, { force: true });
  return { env, stop: () => new Promise((r) => { p.on('close', r); p.kill('SIGTERM'); }) };
}

/** Runs `count` requests from `C` concurrent loops; returns requests per second. */
async function timed(count, request) {
  let next = 0;
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: C }, async () => {
    while (next < count) {
      const i = next++;
      const r = await request(i);
      await r.body.text();
      if (r.statusCode >= 300) throw new Error(`request ${i} answered ${r.statusCode}`);
    }
  }));
  return count / (Number(process.hrtime.bigint() - t0) / 1e9);
}

async function measure(durable) {
  const dataDir = durable ? fs.mkdtempSync(path.join(os.tmpdir(), 'emu-throughput-data-')) : undefined;
  const emu = await startEmulator(dataDir);
  const pool = new Pool(emu.env.SECRETS_ADDR, { connections: C });
  const h = { 'x-secrets-token': emu.env.SECRETS_TOKEN, 'content-type': 'application/json' };
  const write = (i, round) => pool.request({ method: 'POST', path: `/v1/secret/data/tp/d${i % 100}/s${i}`, headers: h, body: JSON.stringify({ data: { user: `u${i}`, round: String(round) } }) });
  try {
    const seed = await timed(N, (i) => write(i, 0));
    const writes = await timed(N, (i) => write(i, 1));
    const reads = await timed(2 * N, (i) => pool.request({ method: 'GET', path: `/v1/secret/data/tp/d${(i % N) % 100}/s${i % N}`, headers: h }));
    const metadataReads = await timed(2 * N, (i) => pool.request({ method: 'GET', path: `/v1/secret/metadata/tp/d${(i % N) % 100}/s${i % N}`, headers: h }));
    return { mode: durable ? 'durable (--data-dir)' : 'in memory', seedWritesPerSecond: seed, writesPerSecond: writes, readsPerSecond: reads, metadataReadsPerSecond: metadataReads };
  } finally {
    await pool.close();
    await emu.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

(async () => {
  const rows = [await measure(false), await measure(true)];
  const f = (x) => x.toFixed(0);
  const out = [`KV secrets, ${N} keys, ${C} connections, emulator in its own process (node ${process.version}, ${os.cpus().length} cores)`,
    '| mode | writes/s (new keys, 0 to N) | writes/s (new versions, N keys) | data reads/s | metadata reads/s |', '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.mode} | ${f(r.seedWritesPerSecond)} | ${f(r.writesPerSecond)} | ${f(r.readsPerSecond)} | ${f(r.metadataReadsPerSecond)} |`),
    `durable / in memory: writes ${(rows[1].writesPerSecond / rows[0].writesPerSecond).toFixed(2)}x, reads ${(rows[1].readsPerSecond / rows[0].readsPerSecond).toFixed(2)}x`];
  console.log(out.join('\n'));
  if (process.env.BENCH_OUT) fs.writeFileSync(process.env.BENCH_OUT, JSON.stringify({ n: N, connections: C, rows }, null, 2));
})().catch((e) => { console.error(e); process.exit(1); });
