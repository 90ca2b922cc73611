import * as fs from 'fs';
import * as path from 'path';

/** The runners `converge init` and cdktf's templates start through npx. */
const RUNNERS = ['tsx', 'ts-node'];
const NPX_RUNNER = new RegExp(`^\\s*npx\\s+(${RUNNERS.join('|')})(?=\\s|$)(.*)$`, 's');

/** The command to run and, when npx was left out, the `.bin` directory npx would have put first on PATH. */
export interface AppCommand {
  readonly command: string;
  readonly binDir?: string;
}

/**
 * `npx tsx …` and `npx ts-node …` as the installed binary with the same arguments: npx's own start
 * costs about half a second on every synth. The binary is looked for where npx looks first: the
 * `node_modules/.bin` of the app directory and of each directory above (a workspace's root), then in
 * `fallbackRoots` (converge's own). Any other command, or one whose binary is not installed, is
 * returned as it is (npx then installs or finds it as before).
 */
export function directAppCommand(app: string, appDir: string, fallbackRoots: readonly string[] = ownRoots()): AppCommand {
  const m = NPX_RUNNER.exec(app);
  if (!m) return { command: app };
  const [, runner, rest] = m;
  const names = process.platform === 'win32' ? [`${runner}.cmd`] : [runner];
  for (const root of [...ancestors(appDir), ...fallbackRoots]) {
    const binDir = path.join(root, 'node_modules', '.bin');
    for (const name of names) {
      const bin = path.join(binDir, name);
      if (fs.existsSync(bin)) return { command: `"${bin}"${rest}`, binDir };
    }
  }
  return { command: app };
}

function ancestors(dir: string): string[] {
  const out: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    out.push(d);
    if (path.dirname(d) === d) return out;
  }
}

/** The root of converge's package (three levels above lib/core/synth and dist/core/synth). */
function ownRoots(): string[] {
  return [path.resolve(__dirname, '../../..')];
}
