#!/usr/bin/env node
// Synthesizes the benchmark stack: KV secrets `bench/app<i % 100>/s<i>` and organizations `bench-org-<i>`.
// Usage: node bench/gen-app.js KV_SECRETS ORGANIZATIONS OUTDIR [CHANGE_EVERY]
// With CHANGE_EVERY = k, every k-th secret holds other data (k = 100: an apply of 1 % updates).
'use strict';
const { App, TerraformStack } = require('cdktf');
const converge = require('../dist');

const [kv, orgs] = process.argv.slice(2, 4).map(Number);
const outdir = process.argv[4];
const changeEvery = Number(process.argv[5] ?? 0);
const app = new App({ outdir });
const stack = new TerraformStack(app, 'bench');
for (let i = 0; i < orgs; i++) {
  new converge.platform.Organization(stack, `org${i}`, { name: `bench-org-${i}`, email: `ops${i}@bench.io`, removalPolicy: converge.RemovalPolicy.DESTROY });
}
for (let i = 0; i < kv; i++) {
  new converge.secrets.KvSecret(stack, `kv${i}`, { path: `bench/app${i % 100}/s${i}`, data: { user: `u${i}`, n: changeEvery && i % changeEvery === 0 ? `${i}-changed` : String(i) } });
}
app.synth();
