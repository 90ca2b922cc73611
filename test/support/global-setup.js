// Jest globalSetup: every temporary file of this run (tests, the CLI and servers they start) goes
// under one directory of its own, removed by global-teardown.js; and what exists at the repository
// root is noted, so that teardown can tell what the run left there.
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '../..');
const LEAKABLE = ['.converge', 'cdktf.out'];

module.exports = async () => {
  // What converge-* entries the system's temporary directory had: teardown names those the run added outside its own.
  process.env.CONVERGE_JEST_SYSTEM_TMP = os.tmpdir();
  process.env.CONVERGE_JEST_SYSTEM_TMP_BEFORE = JSON.stringify(convergeEntries(os.tmpdir()));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'converge-jest-'));
  // As /tmp is: servers that run as another user (PostgreSQL refuses root) keep their directories here too.
  fs.chmodSync(dir, 0o1777);
  // Workers and every process they spawn with the inherited environment take os.tmpdir() from TMPDIR.
  process.env.CONVERGE_JEST_TMPDIR = dir;
  process.env.TMPDIR = dir;
  process.env.CONVERGE_JEST_ROOT_BEFORE = JSON.stringify(LEAKABLE.filter((f) => fs.existsSync(path.join(ROOT, f))));
  // Tests run with the repository root as their directory: cdktf's App() makes its default outdir (cdktf.out) there
  // even when the test never synthesizes, and a state key is created in .converge/ when none is set. Both go elsewhere.
  process.env.CDKTF_OUTDIR ??= path.join(dir, 'cdktf.out');
  process.env.CONVERGE_STATE_KEY ??= require('crypto').randomBytes(32).toString('hex');
  // The jsii runtime's Node end-of-life banner, in every process the tests start (Python, Java, Go apps).
  process.env.JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION ??= process.versions.node.split('.')[0];
  process.env.JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION ??= '1';
};
/** The entries of a temporary directory that converge or its tests make (`converge-*`). */
function convergeEntries(dir) {
  return fs.readdirSync(dir).filter((f) => f.startsWith('converge-') && !f.startsWith('converge-jest-'));
}
module.exports.LEAKABLE = LEAKABLE;
module.exports.convergeEntries = convergeEntries;
module.exports.ROOT = ROOT;
