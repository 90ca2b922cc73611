import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

interface Peak { pid: number; ppid: number; script: string; maxRssKb: number; cpuMs: number }
interface Peaks { nodeOptions: string; reset(): void; read(): { cli: Peak[]; synthesis: Peak[] } }
// bench/ is plain JavaScript run by node (npm run bench): loaded as it runs there.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { processPeaks } = require('../../bench/process-peaks') as { processPeaks: (dir: string) => Peaks };

describe('bench: the peak RSS of each process of a run', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'process-peaks-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reports the CLI and the app it runs apart, each with its own peak', () => {
    // A stand-in CLI (named as bin/converge's script) that runs an "app" holding 200 MB, as converge runs a synthesis.
    const app = path.join(dir, 'main.js');
    fs.writeFileSync(app, 'const b = Buffer.alloc(200 * 1024 * 1024, 1); if (b[0] !== 1) process.exit(1);\n');
    const cli = path.join(dir, 'dist', 'cli', 'main.js');
    fs.mkdirSync(path.dirname(cli), { recursive: true });
    fs.writeFileSync(cli, `const r = require('child_process').spawnSync(process.execPath, [${JSON.stringify(app)}], { stdio: 'inherit' }); process.exit(r.status);\n`);
    const peaks = processPeaks(path.join(dir, 'probe'));
    peaks.reset();
    const r = spawnSync(process.execPath, [cli], { env: { PATH: process.env.PATH, NODE_OPTIONS: peaks.nodeOptions }, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const { cli: clis, synthesis } = peaks.read();
    expect(clis.map((p) => p.script)).toEqual([cli]);
    expect(synthesis.map((p) => p.script)).toEqual([app]);
    expect(synthesis[0].ppid).toBe(clis[0].pid);
    // The app's 200 MB are its own: the CLI's peak does not include them, as /usr/bin/time's (the largest of the tree) would.
    expect(synthesis[0].maxRssKb).toBeGreaterThan(200 * 1024);
    expect(clis[0].maxRssKb).toBeLessThan(200 * 1024);
    expect(clis[0].cpuMs).toBeGreaterThan(0);

    peaks.reset();
    expect(peaks.read()).toEqual({ cli: [], synthesis: [] });
  });
});
