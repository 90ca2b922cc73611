import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

// The secrets domain's cut (docs/architecture.md): an engine family's folder holds its constructs,
// schemas, handlers, client and emulator; what several families share is in shared/, the transport
// and facade in client/, the emulator's host in emulator/. These rules keep the families apart, so
// that a family can be read (and a kind added) without opening another family's files.

const LIB = path.resolve(__dirname, '../../lib/secrets');
const TEST = __dirname;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** The files of lib/secrets a module imports (import, export from, require, import()). */
function importsOf(file: string): string[] {
  return ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles.map((f) => f.fileName)
    .filter((s) => s.startsWith('.'))
    .map((s) => path.resolve(path.dirname(file), s))
    .map((base) => [`${base}.ts`, path.join(base, 'index.ts')].find((c) => fs.existsSync(c)))
    .filter((f): f is string => f !== undefined && f.startsWith(LIB + path.sep));
}

/** The first folder of a file below lib/secrets ('' for a file at its root). */
const folderOf = (f: string) => {
  const parts = path.relative(LIB, f).split(path.sep);
  return parts.length > 1 ? parts[0] : '';
};
const rel = (f: string) => path.relative(LIB, f);

/** Folders that are no engine family: shared code, the transport, the emulator host, the Terraform mappings. */
const NOT_FAMILIES = new Set(['', 'shared', 'client', 'emulator', 'migrate']);
const isEmulatorCode = (f: string) => f.endsWith('.emulator.ts') || folderOf(f) === 'emulator';

/** The files lib/secrets/index.ts exports: the public constructs (and their interfaces) of each family. */
function publicFiles(): Set<string> {
  const index = path.join(LIB, 'index.ts');
  return new Set(importsOf(index));
}

describe('the secrets domain layout', () => {
  const graph = new Map(sources(LIB).map((f) => [f, importsOf(f)]));
  const families = [...new Set([...graph.keys()].map(folderOf))].filter((d) => !NOT_FAMILIES.has(d));

  test('the walk sees the families and their imports', () => {
    expect(families).toEqual(expect.arrayContaining(['kv', 'database', 'directory', 'totp', 'sys', 'approle']));
    expect(graph.get(path.join(LIB, 'kv/kv-secret.handler.ts'))).toContain(path.join(LIB, 'kv/kv-client.ts'));
  });

  test('a family (or shared/) imports of another family only its public constructs', () => {
    const exported = publicFiles();
    const bad = [...graph].filter(([f]) => families.includes(folderOf(f)) || folderOf(f) === 'shared')
      .flatMap(([f, deps]) => deps.filter((d) => families.includes(folderOf(d)) && folderOf(d) !== folderOf(f) && !exported.has(d))
        .map((d) => `${rel(f)} -> ${rel(d)}`));
    expect(bad).toEqual([]);
  });

  test('only emulator code imports emulator code: constructs, handlers and clients never load the emulator', () => {
    const bad = [...graph].filter(([f]) => !isEmulatorCode(f))
      .flatMap(([f, deps]) => deps.filter(isEmulatorCode).map((d) => `${rel(f)} -> ${rel(d)}`));
    expect(bad).toEqual([]);
  });

  test('the emulator host reaches a family only through its *.emulator.ts files', () => {
    const bad = [...graph].filter(([f]) => folderOf(f) === 'emulator')
      .flatMap(([f, deps]) => deps.filter((d) => folderOf(d) !== 'emulator' && folderOf(d) !== '' && !d.endsWith('.emulator.ts'))
        .map((d) => `${rel(f)} -> ${rel(d)}`));
    expect(bad).toEqual([]);
  });

  test('tests mirror lib: every folder of test/secrets is a folder of lib/secrets', () => {
    const testFolders = fs.readdirSync(TEST, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(testFolders.length).toBeGreaterThan(5);
    expect(testFolders.filter((d) => !fs.existsSync(path.join(LIB, d)))).toEqual([]);
  });
});
