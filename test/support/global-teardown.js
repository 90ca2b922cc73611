// Jest globalTeardown: removes this run's temporary directory (see global-setup.js) and
// fails the run when a test wrote converge's state or a synth output into the repository root.
const fs = require('fs');
const path = require('path');
const { convergeEntries, LEAKABLE, ROOT } = require('./global-setup');

module.exports = async () => {
  const dir = process.env.CONVERGE_JEST_TMPDIR;
  if (dir && path.basename(dir).startsWith('converge-jest-')) fs.rmSync(dir, { recursive: true, force: true });
  const before = JSON.parse(process.env.CONVERGE_JEST_ROOT_BEFORE ?? '[]');
  const left = LEAKABLE.filter((f) => !before.includes(f) && fs.existsSync(path.join(ROOT, f)));
  for (const f of left) fs.rmSync(path.join(ROOT, f), { recursive: true, force: true });
  const systemTmp = process.env.CONVERGE_JEST_SYSTEM_TMP;
  if (systemTmp) {
    const had = new Set(JSON.parse(process.env.CONVERGE_JEST_SYSTEM_TMP_BEFORE ?? '[]'));
    const added = convergeEntries(systemTmp).filter((f) => !had.has(f));
    if (added.length) {
      console.error(`\nWARNING: ${added.length} converge-* entries appeared in ${systemTmp} during the run, outside its own directory `
        + `(e.g. ${added.slice(0, 3).join(', ')}): a test starts a process without TMPDIR (pass TMPDIR: process.env.TMPDIR in its env)`);
    }
  }
  // Fails the run: a test that writes into the repository (issue 25, item 14) races the others that read it.
  if (left.length) {
    throw new Error(`the tests wrote ${left.join(' and ')} into the repository root (removed now): a test runs converge `
      + `or synthesizes with cwd ${ROOT}; give it a temporary directory (CONVERGE_DIR, --synth-dir, App({ outdir }))`);
  }
};
