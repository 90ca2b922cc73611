// jest's default order runs the files that were slowest last time first (its timing cache), and on a fresh clone,
// which has no cache (CI), the largest files first. File size says little here: a 250-line file that builds a wheel
// and two virtualenvs takes minutes, and started late it runs alone at the end while the other worker idles.
// These files (the slowest of a full run, `npm test`'s per-file times) start first either way.
'use strict';
const Sequencer = require('@jest/test-sequencer').default;

const SLOW_FIRST = [
  'test/package/python.test.ts',
  'test/e2e/emulator-postgres.test.ts',
  'test/e2e/terraform-bridge.test.ts',
  'test/e2e/package.test.ts',
  'test/real-servers/lease-revocation.openbao.test.ts',
  'test/performance/request-budget.test.ts',
  'test/e2e/untrusted-synth-output.test.ts',
  'test/secrets/sys-kinds.e2e.test.ts',
  'test/e2e/cross-stack.test.ts',
  'test/cli/init-portable.test.ts',
  'test/package/examples.test.ts',
  'test/reliability/secret-hygiene-all-kinds.test.ts',
];

class SlowFirst extends Sequencer {
  sort(tests) {
    const rank = (t) => {
      const i = SLOW_FIRST.findIndex((p) => t.path.endsWith(p));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    return super.sort(tests).map((t, i) => ({ t, i })).sort((a, b) => rank(a.t) - rank(b.t) || a.i - b.i).map(({ t }) => t);
  }
}

module.exports = SlowFirst;
