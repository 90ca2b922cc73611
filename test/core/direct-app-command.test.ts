import * as fs from 'fs';
import * as path from 'path';
import { directAppCommand } from '../../lib/core/synth/direct-app-command';
import { tempDir } from '../support/harness';

// Issue 37, the fixed cost: `npx tsx …` / `npx ts-node …` costs npx's own start (about half a second);
// the app's installed binary is run directly with the same arguments, else npx is kept.
describe('the app command without npx', () => {
  let app: string;
  const bin = (root: string, name: string) => {
    fs.mkdirSync(path.join(root, 'node_modules', '.bin'), { recursive: true });
    const f = path.join(root, 'node_modules', '.bin', name);
    fs.writeFileSync(f, '#!/bin/sh\n', { mode: 0o755 });
    return f;
  };
  beforeEach(() => { app = tempDir('converge-direct-'); });
  afterEach(() => fs.rmSync(app, { recursive: true, force: true }));

  test('npx tsx with tsx installed in the app runs the binary with the same arguments', () => {
    const tsx = bin(app, 'tsx');
    expect(directAppCommand('npx tsx main.ts --flag "a b"', app, [])).toEqual({ command: `"${tsx}" main.ts --flag "a b"`, binDir: path.dirname(tsx) });
  });

  test('npx ts-node, from a workspace root above the app', () => {
    const tsNode = bin(app, 'ts-node');
    const nested = path.join(app, 'packages', 'infra');
    fs.mkdirSync(nested, { recursive: true });
    expect(directAppCommand('npx ts-node --prefer-ts-exts main.ts', nested, []).command).toBe(`"${tsNode}" --prefer-ts-exts main.ts`);
  });

  test("converge's own binary when the app has none", () => {
    const own = tempDir('converge-own-');
    const tsx = bin(own, 'tsx');
    expect(directAppCommand('npx tsx main.ts', app, [own]).command).toBe(`"${tsx}" main.ts`);
    fs.rmSync(own, { recursive: true, force: true });
  });

  test('npx is kept when the binary is not installed, and other commands are untouched', () => {
    expect(directAppCommand('npx tsx main.ts', app, []).command).toBe('npx tsx main.ts');
    bin(app, 'tsx');
    for (const other of ['npx tsxx main.ts', 'npx -p tsx tsx main.ts', 'node main.js', 'npx cdktf synth', 'python3 main.py', 'npx tsx']) {
      const r = directAppCommand(other, app, []);
      if (other === 'npx tsx') expect(r.command).toBe(`"${path.join(app, 'node_modules', '.bin', 'tsx')}"`);
      else expect(r).toEqual({ command: other });
    }
  });
});
