import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { MESH_API_PROFILE } from '../../lib/mesh/api-profile';
import { PLATFORM_API_PROFILE } from '../../lib/platform/api-profile';
import { SECRETS_API_PROFILE } from '../../lib/secrets/api-profile';

// No module of lib/ imports itself through others: a cycle makes the load order decide what is
// defined (a class undefined at the time a sub-module uses it) and hides which module is the base.
// Type-only imports count too: a cycle of types is still two modules that cannot be read apart.

const LIB = path.resolve(__dirname, '../../lib');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

function resolveSpecifier(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return [`${base}.ts`, path.join(base, 'index.ts'), base].find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
}

/** The module specifiers of a source text: `import`, `export … from`, `import x = require()`, `import()`, `require()`. */
function specifiersOf(text: string): string[] {
  const specs: string[] = [];
  const visit = (n: ts.Node): void => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
      specs.push(n.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(n) && ts.isExternalModuleReference(n.moduleReference) && ts.isStringLiteral(n.moduleReference.expression)) {
      specs.push(n.moduleReference.expression.text);
    } else if (ts.isCallExpression(n) && n.arguments.length === 1 && ts.isStringLiteral(n.arguments[0])
      && (n.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(n.expression) && n.expression.text === 'require'))) {
      specs.push(n.arguments[0].text);
    }
    ts.forEachChild(n, visit);
  };
  visit(ts.createSourceFile('module.ts', text, ts.ScriptTarget.Latest, false));
  return specs;
}

/** The files of this repository a module imports (packages skipped). */
function importsOf(file: string): string[] {
  return specifiersOf(fs.readFileSync(file, 'utf8')).filter((s) => s.startsWith('.'))
    .map((s) => resolveSpecifier(file, s)).filter((f): f is string => f !== undefined);
}

/** The cycles of a graph, one per strongly connected component (Tarjan), each as a closed path. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const strong = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(component);
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) strong(v);
  // One concrete cycle through each component, from its first file back to it.
  return components.map((component) => {
    const members = new Set(component);
    const start = [...component].sort()[0];
    const prev = new Map<string, string>();
    const queue = [start];
    while (queue.length) {
      const v = queue.shift()!;
      for (const w of graph.get(v) ?? []) {
        if (!members.has(w)) continue;
        if (w === start) {
          const pathBack = [v];
          while (pathBack[0] !== start) pathBack.unshift(prev.get(pathBack[0])!);
          return [...pathBack, start];
        }
        if (!prev.has(w)) { prev.set(w, v); queue.push(w); }
      }
    }
    return [start, start];
  });
}

describe('import cycles', () => {
  test('the walk finds a cycle (of value or type imports) and names its files in order', () => {
    const files: Record<string, string> = {
      '/x/a.ts': "import { b } from './b';\nexport const a = 1;",
      '/x/b.ts': "import type { C } from './c';\nexport const b = 2;",
      '/x/c.ts': "export { a } from './a';\nexport interface C { n: number }",
      '/x/d.ts': "// import { a } from './a'\nconst e = require('./e');",
      '/x/e.ts': "export const e = import('./d');",
      '/x/f.ts': "import * as fs from 'fs';\nimport { a } from './a';",
    };
    const graph = new Map(Object.entries(files).map(([f, text]) => [f,
      specifiersOf(text).filter((spec) => spec.startsWith('.')).map((spec) => path.posix.join('/x', `${spec}.ts`))]));
    expect(cyclesOf(graph)).toEqual([['/x/a.ts', '/x/b.ts', '/x/c.ts', '/x/a.ts'], ['/x/d.ts', '/x/e.ts', '/x/d.ts']]);
    expect(cyclesOf(new Map([['/x/s.ts', ['/x/s.ts']], ['/x/t.ts', []]]))).toEqual([['/x/s.ts', '/x/s.ts']]);
  });

  test('importsOf reads every form of import of a real file, and skips packages', () => {
    const file = path.join(LIB, 'platform/client/platform-client.ts');
    const deps = importsOf(file);
    expect(deps).toContain(path.join(LIB, 'core/http/http-client.ts'));
    expect(deps.every((d) => d.startsWith(LIB))).toBe(true);
  });

  test('no module of lib/ imports itself through others', () => {
    const graph = new Map(sources(LIB).map((f) => [f, importsOf(f)]));
    expect(graph.size).toBeGreaterThan(100);
    const cycles = cyclesOf(graph).map((c) => c.map((f) => path.relative(LIB, f)).join(' -> '));
    expect(cycles).toEqual([]);
  });
});

// The layers: cli -> domains -> core. Core imports no domain (nor the CLI), and names no API in its
// code: what differs per API (headers, variables, rules) is each domain's `api-profile.ts`.
const CORE = path.join(LIB, 'core');
const DOMAINS = ['platform', 'secrets', 'mesh'];

/** Each file and every file of lib/ it reaches through imports (itself excluded). */
function reachable(graph: Map<string, string[]>, from: string): Set<string> {
  const seen = new Set<string>();
  const todo = [...graph.get(from) ?? []];
  while (todo.length) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    todo.push(...graph.get(f) ?? []);
  }
  return seen;
}

/** The string literals of a source text as written in code (template parts too), with their lines; literal types and import specifiers aside. */
function stringLiteralsOf(text: string): { text: string; line: number }[] {
  const file = ts.createSourceFile('module.ts', text, ts.ScriptTarget.Latest, true);
  const found: { text: string; line: number }[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n) || ts.isLiteralTypeNode(n)) return;
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) {
      found.push({ text: n.text, line: file.getLineAndCharacterOfPosition(n.getStart(file)).line + 1 });
    }
    ts.forEachChild(n, visit);
  };
  visit(file);
  return found;
}

describe('layers', () => {
  const graph = new Map(sources(LIB).map((f) => [f, importsOf(f)]));
  const rel = (f: string) => path.relative(LIB, f);

  test('core imports no domain and no CLI', () => {
    const outside = [...graph].filter(([f]) => f.startsWith(CORE + path.sep))
      .flatMap(([f, deps]) => deps.filter((d) => !d.startsWith(CORE + path.sep)).map((d) => `${rel(f)} -> ${rel(d)}`));
    expect(outside).toEqual([]);
  });

  test('an emulator imports no client, schema or handler of its domain (not even through another module)', () => {
    const isEmulator = (f: string) => f.endsWith('.emulator.ts') || DOMAINS.some((d) => f.startsWith(path.join(LIB, d, 'emulator') + path.sep));
    const inDomain = (f: string) => DOMAINS.some((d) => f.startsWith(path.join(LIB, d) + path.sep));
    const isClientSide = (f: string) => inDomain(f)
      && (/\.(schema|handler)\.ts$|-client\.ts$/.test(f) || DOMAINS.some((d) => f.startsWith(path.join(LIB, d, 'client') + path.sep)));
    const emulators = [...graph.keys()].filter(isEmulator);
    expect(emulators.length).toBeGreaterThan(20);
    const bad = emulators.flatMap((e) => [...reachable(graph, e)].filter(isClientSide).map((d) => `${rel(e)} -> ${rel(d)}`));
    expect(bad).toEqual([]);
  });

  // A family (`lib/<domain>/<family>/`) can be read, changed and tested on its own: it reaches another
  // family only through what the domain shares (the folders below, the domain's root files) or through
  // that family's public constructs (the files the domain's index.ts exports: a construct may name
  // another family's construct as a prop, as a DiscoveryChain names the entries of its chain).
  // Per domain, the folders that are no family; a domain not listed is not checked yet.
  const NOT_FAMILIES: Record<string, string[]> = {
    mesh: ['shared', 'client', 'emulator', 'compiler', 'traffic', 'migrate'],
  };

  test('a family imports no other family\'s files, except their public constructs', () => {
    const bad = Object.entries(NOT_FAMILIES).flatMap(([domain, shared]) => {
      const root = path.join(LIB, domain);
      const familyOf = (f: string): string | undefined => {
        const [first, ...rest] = path.relative(root, f).split(path.sep);
        return rest.length && !first.startsWith('..') && !shared.includes(first) ? first : undefined;
      };
      const index = path.join(root, 'index.ts');
      const publicFiles = new Set(graph.get(index) ?? []);
      expect(publicFiles.size).toBeGreaterThan(5);
      return [...graph].filter(([f]) => familyOf(f)).flatMap(([f, deps]) => deps
        .filter((d) => familyOf(d) && familyOf(d) !== familyOf(f) && !publicFiles.has(d))
        .map((d) => `${rel(f)} -> ${rel(d)}`));
    });
    expect(bad).toEqual([]);
  });

  test('core code names no API: no string literal is the name, a header, a variable or the probe path of an API, or a real server', () => {
    const profiles = [PLATFORM_API_PROFILE, SECRETS_API_PROFILE, MESH_API_PROFILE];
    const names = new Set(profiles.map((p) => p.api.toLowerCase()));
    const words = profiles.flatMap((p) => [...p.tokenHeaders.names.filter((h) => h !== 'Authorization'), p.tokenHeaders.variable,
      p.variables.addressEnv, p.variables.tokenEnv, ...p.toolTokenVariables ?? [],
      p.tls.ca, p.tls.cert, p.tls.key, p.tls.skipVerify, p.probe.path]).filter((w): w is string => !!w).map((w) => w.toLowerCase());
    const servers = /\b(vault|openbao|bao|consul|tfe|otf)\b/i;
    const named = (t: string) => names.has(t.trim().toLowerCase()) || words.some((w) => t.toLowerCase().includes(w)) || servers.test(t);
    const found = [...graph.keys()].filter((f) => f.startsWith(CORE + path.sep))
      .flatMap((f) => stringLiteralsOf(fs.readFileSync(f, 'utf8')).filter((l) => named(l.text)).map((l) => `${rel(f)}:${l.line}: ${JSON.stringify(l.text)}`));
    expect(found).toEqual([]);
  });

  test('the literal scan sees code and skips comments, literal types and import paths', () => {
    const text = "import { x } from './secrets';\n// 'secrets' in a comment\ntype A = 'mesh';\nconst a = 'platform';\nconst b = `${a} x-vault-token ${a}`;";
    expect(stringLiteralsOf(text)).toEqual([{ text: 'platform', line: 4 }, { text: '', line: 5 }, { text: ' x-vault-token ', line: 5 }, { text: '', line: 5 }]);
  });
});
