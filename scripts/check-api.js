#!/usr/bin/env node
// `npm run check:api` (run by `npm test` after the build): fails when the committed API.md is stale.
// Regenerates the reference from the built assembly (.jsii) into a temporary file and compares it
// with API.md as staged in git (in a clean clone: as committed), so that the build rewriting
// API.md in the work tree cannot hide a stale file.
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const root = path.resolve(__dirname, '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'converge-api-'));
const fresh = path.join(tmp, 'API.md');
try {
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'jsii-docgen', 'bin', 'jsii-docgen'), '-o', fresh], { cwd: root, stdio: 'inherit' });
  let committed;
  try {
    committed = execFileSync('git', ['show', ':API.md'], { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    committed = fs.readFileSync(path.join(root, 'API.md'), 'utf8'); // not a git checkout: the file itself
  }
  const generated = fs.readFileSync(fresh, 'utf8');
  if (generated !== committed) {
    const a = committed.split('\n');
    const b = generated.split('\n');
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    process.stderr.write(`API.md is stale: it differs from the generated reference from line ${i + 1}\n` +
      `  committed: ${JSON.stringify(a[i] ?? '(end of file)')}\n  generated: ${JSON.stringify(b[i] ?? '(end of file)')}\n` +
      'Run `npm run build` and commit API.md (git add API.md).\n');
    process.exit(1);
  }
  process.stdout.write('API.md is up to date.\n');
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
