import * as fs from 'fs';
import * as path from 'path';

// The platform's cut (issue 36): a family folder holds its kinds, its client and its server side. What
// several families share is in shared/, the transport and the facade in client/, the emulator's host in
// emulator/. A family reaches another family only through that family's public constructs (a workspace
// names its project), and a family's emulator another family's emulator (the server's resources hold each
// other: a no-code workspace is a workspace, a workspace is in a project and holds variables); never its
// schema, handler or client.

const PLATFORM = path.resolve(__dirname, '../../lib/platform');
const NOT_FAMILIES = new Set(['shared', 'client', 'emulator', 'migrate']);
const SERVER_OR_CLIENT_SIDE = /\.(schema|handler|emulator)\.ts$|-client\.ts$/;

interface Import { readonly from: string; readonly to: string }

/** The imports of one family's files into lib/platform/, as paths relative to it. */
function familyImports(root: string): Import[] {
  const families = fs.readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory() && !NOT_FAMILIES.has(e.name)).map((e) => e.name);
  return families.flatMap((family) => fs.readdirSync(path.join(root, family)).filter((f) => f.endsWith('.ts')).flatMap((file) => {
    const abs = path.join(root, family, file);
    const text = fs.readFileSync(abs, 'utf8');
    return [...text.matchAll(/(?:from|import|require)\s*\(?\s*'(\.[^']+)'/g)]
      .map((m) => path.relative(root, path.resolve(path.dirname(abs), m[1])))
      .filter((to) => !to.startsWith('..'))
      .map((to) => ({ from: `${family}/${file}`, to: to.endsWith('.ts') ? to : `${to}.ts` }));
  }));
}

/** The imports that cross into another family other than by its public construct (or emulator to emulator). */
function crossings(imports: Import[], families: Set<string>): string[] {
  return imports.filter(({ from, to }) => {
    const [fromFamily] = from.split('/');
    const [toFamily] = to.split('/');
    if (toFamily === fromFamily || !families.has(toFamily)) return false;
    if (from.endsWith('.emulator.ts')) return !to.endsWith('.emulator.ts');
    return SERVER_OR_CLIENT_SIDE.test(to);
  }).map(({ from, to }) => `${from} -> ${to}`);
}

const familiesOf = (root: string) => new Set(fs.readdirSync(root, { withFileTypes: true })
  .filter((e) => e.isDirectory() && !NOT_FAMILIES.has(e.name)).map((e) => e.name));

test('the rule finds a crossing into another family\'s schema, handler or client, and allows constructs and emulator to emulator', () => {
  const families = new Set(['workspace', 'project']);
  const imports: Import[] = [
    { from: 'workspace/workspace.ts', to: 'project/project.ts' },
    { from: 'workspace/workspace.schema.ts', to: 'project/project.schema.ts' },
    { from: 'workspace/workspace.handler.ts', to: 'project/project-client.ts' },
    { from: 'workspace/workspace.emulator.ts', to: 'project/project.emulator.ts' },
    { from: 'workspace/workspace.emulator.ts', to: 'project/project.ts' },
    { from: 'workspace/workspace.handler.ts', to: 'shared/handler-util.ts' },
  ];
  expect(crossings(imports, families)).toEqual([
    'workspace/workspace.schema.ts -> project/project.schema.ts',
    'workspace/workspace.handler.ts -> project/project-client.ts',
    'workspace/workspace.emulator.ts -> project/project.ts',
  ]);
});

test('a platform family imports another family only through its public constructs (emulators: its emulator)', () => {
  const imports = familyImports(PLATFORM);
  expect(imports.length).toBeGreaterThan(50);
  expect(crossings(imports, familiesOf(PLATFORM))).toEqual([]);
});

test('client/ and emulator/ hold no family: each family client and emulator is in its family folder', () => {
  const familyFiles = (dir: string) => fs.readdirSync(path.join(PLATFORM, dir))
    .filter((f) => [...familiesOf(PLATFORM)].some((family) => f.startsWith(family)));
  expect(familyFiles('client')).toEqual([]);
  expect(familyFiles('emulator')).toEqual([]);
  for (const family of familiesOf(PLATFORM)) {
    expect({ family, client: fs.existsSync(path.join(PLATFORM, family, `${family}-client.ts`)) }).toEqual({ family, client: true });
    expect({ family, emulator: fs.existsSync(path.join(PLATFORM, family, `${family}.emulator.ts`)) }).toEqual({ family, emulator: true });
  }
});
