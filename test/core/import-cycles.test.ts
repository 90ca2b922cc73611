import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

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
