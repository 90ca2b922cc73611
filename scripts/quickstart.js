#!/usr/bin/env node
// `npm start`: the quick start against the bundled emulator, through the real CLI.
// Starts the emulator in this process, then plans, applies, plans again (no changes), changes
// objects behind converge's back, shows the drift, converges it back and destroys.
'use strict';
const { spawn } = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { Emulator } = require('../dist/bundled-emulator/bundled-emulator.js');

const root = path.resolve(__dirname, '..');
const cli = path.join(root, 'bin', 'converge');

function step(title) {
  process.stdout.write(`\n\x1b[1m==> ${title}\x1b[0m\n`);
}

// The CLI runs as a child process; never synchronously, since the emulator answers from this process.
async function converge(env, args, expected = [0]) {
  process.stdout.write(`$ converge ${args.join(' ')}\n`);
  const status = await new Promise((resolve) => {
    spawn(cli, args, { cwd: root, env, stdio: 'inherit' }).on('close', resolve);
  });
  if (!expected.includes(status)) {
    throw new Error(`converge ${args.join(' ')} exited with ${status} (expected ${expected.join(' or ')})`);
  }
  return status;
}

async function main() {
  const emulator = await Emulator.start({ platformPort: 0, secretsPort: 0, meshPort: 0 });
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'converge-quickstart-'));
  const env = {
    ...process.env,
    ...emulator.env,
    CONVERGE_DIR: path.join(workDir, '.converge'),
    QUICKSTART_DB_PASSWORD: crypto.randomBytes(12).toString('base64url'),
  };
  try {
    step('The emulator serves the three APIs');
    for (const [k, v] of Object.entries(emulator.env)) if (k.endsWith('ADDRESS') || k.endsWith('ADDR')) process.stdout.write(`${k}=${v}\n`);

    step('Plan: everything is new');
    await converge(env, ['plan', '--detailed-exitcode'], [2]);

    step('Apply');
    await converge(env, ['apply', '--auto-approve']);

    step('Plan again: nothing to do');
    await converge(env, ['plan', '--detailed-exitcode'], [0]);

    step('Someone changes objects behind converge\'s back');
    await fetch(`${emulator.env.SECRETS_ADDR}/v1/secret/data/acme/db`, {
      method: 'POST', headers: { 'x-secrets-token': emulator.env.SECRETS_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { user: 'app', password: 'changed-by-hand' } }),
    }).then((r) => { if (!r.ok) throw new Error(`drift write failed: ${r.status}`); });
    await fetch(`${emulator.env.PLATFORM_ADDRESS}/api/v2/organizations/acme`, {
      method: 'PATCH', headers: { authorization: `Bearer ${emulator.env.PLATFORM_TOKEN}`, 'content-type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: { type: 'organizations', attributes: { email: 'someone@else.io' } } }),
    }).then((r) => { if (!r.ok) throw new Error(`drift write failed: ${r.status}`); });
    process.stdout.write('changed the password of secret/acme/db and the email of organization acme\n');

    step('Plan: the drift is found (the password is never shown)');
    await converge(env, ['plan', '--detailed-exitcode'], [2]);

    step('Apply: converge it back');
    await converge(env, ['apply', '--auto-approve']);
    await converge(env, ['plan', '--detailed-exitcode'], [0]);

    step('Destroy (the organization is retained: it is only forgotten)');
    await converge(env, ['destroy', '--auto-approve']);

    step('Done: the quick start ran end to end against the emulator.');
  } finally {
    await emulator.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`quick start failed: ${e.message}\n`);
  process.exit(1);
});
