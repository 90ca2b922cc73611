'use strict';
// The floor: a bare undici client (one keep-alive Pool per API, `parallelism` requests in flight per
// API, as converge runs) sending exactly the minimum requests an operation needs, timed.
// Platform requests are paced by a client-side token bucket matching the published limit
// (30 per second, a burst of 30); a 429 is retried after X-RateLimit-Reset and counted.
const { Pool } = require('undici');

const PLATFORM_LIMIT = 30;
const PAGE = 100;

function bucket(limit) {
  let tokens = limit;
  let at = Date.now();
  return async () => {
    for (;;) {
      const now = Date.now();
      tokens = Math.min(limit, tokens + ((now - at) / 1000) * limit);
      at = now;
      if (tokens >= 1) { tokens -= 1; return; }
      await new Promise((r) => setTimeout(r, Math.ceil(((1 - tokens) / limit) * 1000)));
    }
  };
}

/** Runs request thunks with `parallelism` workers; returns the count of 429 retries. */
async function runAll(pool, requests, parallelism, pace) {
  let next = 0;
  let retries = 0;
  await Promise.all(Array.from({ length: parallelism }, async () => {
    while (next < requests.length) {
      const req = requests[next++];
      for (;;) {
        if (pace) await pace();
        const res = await pool.request(req);
        const text = await res.body.text();
        if (res.statusCode === 429) {
          retries++;
          await new Promise((r) => setTimeout(r, Math.ceil(Number(res.headers['x-ratelimit-reset'] ?? 1) * 1000)));
          continue;
        }
        if (res.statusCode >= 300 && !(req.accept ?? []).includes(res.statusCode)) {
          throw new Error(`floor: ${req.method} ${req.path} answered ${res.statusCode}: ${text.slice(0, 200)}`);
        }
        break;
      }
    }
  }));
  return retries;
}

/**
 * Sends, per API, phases of requests one after the other (a list before the writes it decides),
 * the APIs side by side. Returns wall seconds, requests sent per API, 429 retries and the CPU it took
 * (user + system of this process, which does nothing else meanwhile; its start-up is not included).
 */
async function floor(env, phasesByApi, parallelism) {
  const origins = { secrets: env.SECRETS_ADDR, platform: env.PLATFORM_ADDRESS, mesh: env.MESH_HTTP_ADDR };
  const headers = {
    secrets: { 'x-secrets-token': env.SECRETS_TOKEN, 'content-type': 'application/json' },
    platform: { authorization: `Bearer ${env.PLATFORM_TOKEN}`, 'content-type': 'application/vnd.api+json' },
    mesh: { 'x-mesh-token': env.MESH_HTTP_TOKEN, 'content-type': 'application/json' },
  };
  const pools = {};
  const sent = {};
  let retries = 0;
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  await Promise.all(Object.entries(phasesByApi).map(async ([api, phases]) => {
    const pool = pools[api] = new Pool(origins[api], { connections: parallelism });
    const pace = api === 'platform' ? bucket(PLATFORM_LIMIT) : undefined;
    for (const phase of phases) {
      const reqs = phase.map((r) => ({ ...r, headers: headers[api], body: r.body === undefined ? undefined : JSON.stringify(r.body) }));
      sent[api] = (sent[api] ?? 0) + reqs.length;
      retries += await runAll(pool, reqs, parallelism, pace);
    }
  }));
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  await Promise.all(Object.values(pools).map((p) => p.close()));
  return { wall, sent, retries, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** The bench stack's KV paths and organization names (as bench/gen-app.js declares them). */
const kvPath = (prefix, i) => `${prefix}/app${i % 100}/s${i}`;
const folders = (prefix, n) => Array.from({ length: Math.min(n, 100) }, (_, f) => `${prefix}/app${f}/`);

/** Minimum requests of a no-op plan: one metadata read per KV secret, organizations by pages of 100. */
function noopPlan({ kv, orgs, accountOrgs, prefix }) {
  return {
    secrets: [Array.from({ length: kv }, (_, i) => ({ method: 'GET', path: `/v1/secret/metadata/${kvPath(prefix, i)}` }))],
    platform: [Array.from({ length: Math.ceil(Math.max(orgs, accountOrgs) / PAGE) }, (_, p) => ({
      method: 'GET', path: `/api/v2/organizations?page%5Bsize%5D=${PAGE}&page%5Bnumber%5D=${p + 1}` }))],
  };
}

/**
 * Minimum requests of a first apply: the plan of objects not yet in state (one LIST per KV folder,
 * the organization list), then one cas-0 write per KV secret and one POST per organization.
 */
function createAll({ kv, orgs, accountOrgs, prefix, orgPrefix }) {
  return {
    secrets: [
      folders(prefix, kv).map((f) => ({ method: 'GET', path: `/v1/secret/metadata/${f}?list=true`, accept: [404] })),
      Array.from({ length: kv }, (_, i) => ({ method: 'POST', path: `/v1/secret/data/${kvPath(prefix, i)}`,
        body: { options: { cas: 0 }, data: { user: `u${i}`, n: String(i) } } })),
    ],
    platform: [
      Array.from({ length: Math.max(1, Math.ceil(accountOrgs / PAGE)) }, (_, p) => ({ method: 'GET', path: `/api/v2/organizations?page%5Bsize%5D=${PAGE}&page%5Bnumber%5D=${p + 1}` })),
      Array.from({ length: orgs }, (_, i) => ({ method: 'POST', path: '/api/v2/organizations',
        body: { data: { type: 'organizations', attributes: { name: `${orgPrefix}-${i}`, email: `ops${i}@bench.io` } } } })),
    ],
  };
}

const count = (phasesByApi) => Object.fromEntries(Object.entries(phasesByApi).map(([api, phases]) => [api, phases.reduce((a, p) => a + p.length, 0)]));

module.exports = { floor, noopPlan, createAll, count, kvPath, PLATFORM_LIMIT };
