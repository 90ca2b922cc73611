// The emulator's own speed: KV reads per second, the emulator in its own process (one core), a bare undici loop here.
// Usage: node bench/emulator-throughput.js [reads]
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { Pool } = require('undici');
(async () => {
  const envFile = path.join(os.tmpdir(), `emu-throughput-${process.pid}.env`); fs.rmSync(envFile, { force: true });
  const p = spawn(require('path').join(__dirname, '..', 'bin', 'converge'), ['emulator', '--platform-port', '0', '--secrets-port', '0', '--mesh-port', '0', '--env-file', envFile], { stdio: 'ignore' });
  while (!fs.existsSync(envFile)) await new Promise((r) => setTimeout(r, 50));
  const env = Object.fromEntries(fs.readFileSync(envFile, 'utf8').trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  const pool = new Pool(env.SECRETS_ADDR, { connections: 20 });
  const h = { 'x-secrets-token': env.SECRETS_TOKEN, 'content-type': 'application/json' };
  for (let i = 0; i < 100; i++) { const r = await pool.request({ method: 'POST', path: `/v1/secret/data/tp/s${i}`, headers: h, body: JSON.stringify({ data: { a: String(i) } }) }); await r.body.text(); }
  const N = Number(process.argv[2] ?? 20000); let next = 0; const t0 = Date.now();
  await Promise.all(Array.from({ length: 20 }, async () => { while (next < N) { const i = next++; const r = await pool.request({ method: 'GET', path: `/v1/secret/data/tp/s${i % 100}`, headers: h }); await r.body.text(); } }));
  const s = (Date.now() - t0) / 1000; console.log(`${N} KV reads in ${s.toFixed(2)} s: ${(N / s).toFixed(0)} per second`);
  await pool.close(); p.kill();
})();
