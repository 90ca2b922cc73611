import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { CliResult, cliAsync, ROOT, tempDir, TestWorld } from '../support/harness';

export const FIXTURES = path.join(__dirname, 'fixtures', 'migrate');

/**
 * A cdktf app as a team has one, whose main.ts declares the stack `converge migrate terraform` writes
 * (imported.ts): cdk-converge is this checkout's source, as the examples use it.
 */
export function appDir(): string {
  const dir = tempDir('converge-migrate-app-');
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    extends: path.join(ROOT, 'tsconfig.json'),
    compilerOptions: { paths: { 'cdk-converge': [path.join(ROOT, 'lib', 'index.ts')] }, noUnusedLocals: true, types: ['node'] },
    include: ['*.ts'],
  }));
  fs.writeFileSync(path.join(dir, 'cdktf.json'), JSON.stringify({ language: 'typescript', app: 'npx tsx main.ts', output: 'cdktf.out' }));
  fs.writeFileSync(path.join(dir, 'main.ts'), [
    "import { App } from 'cdktf';",
    "import { ImportedStack } from './imported';",
    '',
    'const app = new App();',
    "new ImportedStack(app, 'imported');",
    'app.synth();',
    '',
  ].join('\n'));
  return dir;
}

/** Type-checks the app (the generated code included) as `tsc --noEmit` would in the team's repository. */
export function typeCheck(dir: string): { status: number | null; output: string } {
  const r = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'tsc'), ['--noEmit', '-p', path.join(dir, 'tsconfig.json')], { encoding: 'utf8', timeout: 300_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** The variables the migration printed: name -> the old state's resource address and attribute path. */
export function printedVariables(stdout: string): Map<string, { address: string; attribute: string }> {
  const out = new Map<string, { address: string; attribute: string }>();
  const start = stdout.indexOf('Set these');
  if (start < 0) return out;
  for (const line of stdout.slice(start).split('\n').slice(1)) {
    const m = /^ {2}([A-Z0-9_]+) +(\S+) +(\S+)$/.exec(line);
    if (!m) break;
    out.set(m[1], { address: m[2], attribute: m[3] });
  }
  return out;
}

/** Runs the CLI in the app directory. */
export function run(world: TestWorld, dir: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return cliAsync(args, { ...world.env, TMPDIR: process.env.TMPDIR, ...env }, dir);
}

/** Asserts that no secret value is in any file of the app or of converge's state, nor in any output. */
export function expectNoSecret(secretValues: readonly string[], dirs: readonly string[], outputs: readonly CliResult[]): void {
  expect(secretValues.length).toBeGreaterThan(0);
  const files = dirs.flatMap(filesUnder);
  expect(files.length).toBeGreaterThan(0);
  for (const v of secretValues) {
    for (const f of files) if (f.text.includes(v)) throw new Error(`secret value of the old state (${v.length} characters, starting ${v.slice(0, 3)}) found in ${f.file}`);
    for (const o of outputs) {
      if (o.stdout.includes(v) || o.stderr.includes(v)) throw new Error('secret value of the old state found in the output');
    }
  }
}

/** Every file under a directory, node_modules (a link to this checkout's) left out. */
function filesUnder(dir: string): { file: string; text: string }[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.name === 'node_modules' || e.isSymbolicLink()) return [];
    return e.isDirectory() ? filesUnder(p) : [{ file: p, text: fs.readFileSync(p, 'utf8') }];
  });
}
