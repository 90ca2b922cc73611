#!/usr/bin/env node
// Synthesizes the benchmark stack: N objects of mixed kinds (platform, secrets, mesh).
// Usage: node bench/gen-app.js N OUTDIR
'use strict';
const { App, TerraformStack } = require('cdktf');
const converge = require('../dist');

const n = Number(process.argv[2]);
const outdir = process.argv[3];
const app = new App({ outdir });
const stack = new TerraformStack(app, 'bench');
const mix = require('./mix').mix(n);
for (let i = 0; i < mix.platform; i++) {
  new converge.platform.Organization(stack, `org${i}`, { name: `bench-org-${i}`, email: `ops${i}@bench.io`, removalPolicy: converge.RemovalPolicy.DESTROY });
}
for (let i = 0; i < mix.mesh; i++) {
  new converge.mesh.ServiceDefaults(stack, `svc${i}`, { name: `svc-${i}`, protocol: converge.mesh.MeshProtocol.HTTP });
}
for (let i = 0; i < mix.secrets; i++) {
  new converge.secrets.KvSecret(stack, `kv${i}`, { path: `bench/app${i % 100}/s${i}`, data: { user: `u${i}`, n: String(i) } });
}
app.synth();
