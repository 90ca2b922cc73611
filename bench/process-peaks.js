'use strict';
// Peak RSS and CPU of each Node.js process of one converge run (issue 37): /usr/bin/time gives only the
// largest process of the tree, and a plan that runs the app has two: the CLI and the synthesis (the app's
// node, and tsx's launcher before it). A probe loaded into every process by NODE_OPTIONS (which converge
// passes to the app: it is on the synthesis allow-list) appends each process's own figures at its exit to
// a file beside the probe: the probe writes where it is, so that no other variable needs to reach the app.
const fs = require('fs');
const path = require('path');

const PROBE = `'use strict';
process.on('exit', () => {
  try {
    const u = process.resourceUsage();
    require('fs').appendFileSync(require('path').join(__dirname, 'peaks.jsonl'), JSON.stringify({ pid: process.pid, ppid: process.ppid,
      script: process.argv[1], maxRssKb: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 }) + '\\n');
  } catch { /* a measurement never fails the run */ }
});
`;

/** The CLI's process: the script bin/converge starts. */
const isCli = (p) => /[\\/]dist[\\/]cli[\\/]main\.js$/.test(p.script ?? '');

/**
 * A probe in `dir` (created). `nodeOptions` is the NODE_OPTIONS value that loads it; `read()` gives the processes
 * that exited since `reset()`: `cli` (the CLI's) and `synthesis` (every other: the app and its launchers).
 */
function processPeaks(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const probe = path.join(dir, 'probe.js');
  const out = path.join(dir, 'peaks.jsonl');
  if (/\s/.test(probe)) throw new Error(`bench: the probe's path holds a space (NODE_OPTIONS would split it): ${probe}`);
  fs.writeFileSync(probe, PROBE);
  return {
    nodeOptions: `--require ${probe}`,
    reset: () => fs.rmSync(out, { force: true }),
    read() {
      const all = fs.existsSync(out) ? fs.readFileSync(out, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
      return { cli: all.filter(isCli), synthesis: all.filter((p) => !isCli(p)) };
    },
  };
}

module.exports = { processPeaks };
