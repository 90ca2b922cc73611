import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, tempDir } from '../support/harness';
import { linkModules, run } from '../support/packaged';
import { KIND_VARIANTS } from '../reliability/kind-props';

// The samples of the construct family pages (```ts sample=KIND / ```python sample=KIND): every
// TypeScript sample is type-checked and synthesized in an app, and must contain its construct;
// every Python sample compiles and names only real constructs, props (snake_case), enum members and
// static methods of the assembly. (Running the Python samples needs the Python wheel: its own test.)
const PAGES = ['platform.md', 'secrets-kv.md', 'secrets-database-directory.md', 'secrets-totp-platform-mesh-mfa.md', 'secrets-mounts-policies.md', 'mesh.md'];

interface Sample { page: string; kind: string; lang: string; code: string }
const samples: Sample[] = PAGES.flatMap((page) => {
  const text = fs.readFileSync(path.join(ROOT, 'docs', page), 'utf8');
  return [...text.matchAll(/^```(ts|python) sample=(\S+)\n([\s\S]*?)^```$/gm)].map((m) => ({ page, lang: m[1], kind: m[2], code: m[3] }));
});
const assembly = JSON.parse(fs.readFileSync(path.join(ROOT, '.jsii'), 'utf8')) as { types: Record<string, { kind: string; abstract?: boolean; initializer?: unknown }> };
const constructKinds = Object.entries(assembly.types)
  .filter(([fqn, t]) => t.kind === 'class' && !t.abstract && t.initializer && /^cdk-converge\.(platform|secrets|mesh)\.[A-Z]/.test(fqn))
  .map(([fqn]) => fqn.slice('cdk-converge.'.length)).sort();

test('every construct has a TypeScript and a Python sample on its page', () => {
  for (const lang of ['ts', 'python']) {
    expect(samples.filter((s) => s.lang === lang).map((s) => s.kind).sort()).toEqual(constructKinds);
  }
});

test('the TypeScript samples type-check and synthesize, each with its construct', async () => {
  const app = tempDir('converge-samples-');
  linkModules(app);
  const ts = samples.filter((s) => s.lang === 'ts');
  ts.forEach((s, i) => {
    const lines = s.code.split('\n');
    const imports = lines.filter((l) => l.startsWith('import '));
    const body = lines.filter((l) => !l.startsWith('import ')).join('\n');
    fs.writeFileSync(path.join(app, `sample${i}.ts`), `import { App, TerraformStack } from 'cdktf';\n${imports.join('\n')}\n\n`
      + `/** ${s.page}: ${s.kind} */\nexport function build(app: App): void {\n  const stack = new TerraformStack(app, 's${i}');\n${body}\n}\n`);
  });
  fs.writeFileSync(path.join(app, 'main.ts'), `import { App } from 'cdktf';\n${ts.map((_, i) => `import { build as b${i} } from './sample${i}';`).join('\n')}\n`
    + `const app = new App({ outdir: 'out' });\n${ts.map((_, i) => `b${i}(app);`).join('\n')}\napp.synth();\n`);
  fs.writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'commonjs', strict: true, noUnusedLocals: false, skipLibCheck: true, noEmit: true, types: ['node'] },
    include: ['*.ts'],
  }));
  const tsc = await run(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', app], { cwd: app });
  expect(tsc.stdout).toBe('');
  expect(tsc.status).toBe(0);
  const synth = await run(process.execPath, [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'main.ts'], { cwd: app });
  expect(synth.stderr).toBe('');
  expect(synth.status).toBe(0);
  ts.forEach((s, i) => {
    const doc = JSON.parse(fs.readFileSync(path.join(app, 'out', 'stacks', `s${i}`, 'cdk.tf.json'), 'utf8'));
    const resources = Object.values((doc['//']?.metadata?.converge?.resources ?? {}) as Record<string, { kind: string; provider: { addressEnv: string; address?: string } }>);
    // A variant synthesizes as the kind it is one of (a LeastPrivilegePolicy is a SecretsPolicy).
    const kind = KIND_VARIANTS[s.kind] ?? s.kind;
    expect({ sample: s.kind, kinds: resources.map((r) => r.kind) }).toEqual({ sample: s.kind, kinds: expect.arrayContaining(s.kind.endsWith('Provider') ? [] : [kind]) });
    // A provider's sample: a construct that reaches its API through it (not the default variables).
    if (s.kind.endsWith('Provider')) expect(resources.some((r) => r.provider.address || /_PROD_/.test(r.provider.addressEnv))).toBe(true);
  });
});

test('the Python samples compile and name only real constructs and snake_case props', () => {
  const dir = tempDir('converge-py-samples-');
  const files = samples.filter((s) => s.lang === 'python').map((s, i) => {
    const f = path.join(dir, `sample_${i}_${s.kind.replace('.', '_')}.py`);
    fs.writeFileSync(f, s.code);
    return f;
  });
  const compile = spawnSync('python3', ['-m', 'py_compile', ...files], { encoding: 'utf8' });
  expect(compile.stderr).toBe('');
  expect(compile.status).toBe(0);
  const check = spawnSync('python3', [path.join(__dirname, 'check_python_samples.py'), path.join(ROOT, '.jsii'), ...files], { encoding: 'utf8' });
  expect(check.stdout + check.stderr).toBe('');
  expect(check.status).toBe(0);
});

test('the Python check refuses a camelCase prop, an unknown construct and a missing required prop', () => {
  const f = path.join(tempDir('converge-py-samples-'), 'bad.py');
  fs.writeFileSync(f, 'from cdk_converge import platform, mesh\n'
    + 'platform.Organization(stack, "org", name="acme", collaboratorAuthPolicy=None)\nmesh.ServiceResolverSubset(filter="x")\n');
  const check = spawnSync('python3', [path.join(__dirname, 'check_python_samples.py'), path.join(ROOT, '.jsii'), f], { encoding: 'utf8' });
  expect(check.status).toBe(1);
  expect(check.stdout).toMatch(/platform\.Organization has no prop collaboratorAuthPolicy/);
  expect(check.stdout).toMatch(/platform\.Organization needs email/);
  expect(check.stdout).toMatch(/cdk_converge has no mesh\.ServiceResolverSubset/);
});

// Every other TypeScript block of the README and docs/ (whole programs, or stack bodies that use
// `app`, `stack` and the namespaces), and every other Python block, so that no doc sample rots.
const OTHER = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)].flatMap((file) => {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  return [...text.matchAll(/^```(ts|typescript|python)((?: [^\n]*)?)\n([\s\S]*?)^```$/gm)]
    .filter((m) => !/sample=/.test(m[2]))
    .map((m) => ({ file, line: text.slice(0, m.index).split('\n').length, lang: m[1] === 'python' ? 'python' : 'ts', code: m[3] }));
});

test('every other TypeScript sample of the README and docs/ type-checks and synthesizes', async () => {
  const app = tempDir('converge-doc-samples-');
  try {
    linkModules(app);
    fs.mkdirSync(path.join(app, 'node_modules', '@cdktf'));
    fs.symlinkSync(path.join(ROOT, 'node_modules', '@cdktf', 'provider-null'), path.join(app, 'node_modules', '@cdktf', 'provider-null'), 'dir');
    const ts = OTHER.filter((s) => s.lang === 'ts');
    expect(ts.length).toBeGreaterThanOrEqual(5);
    const files = ts.map((s, i) => {
      const whole = /new App\(/.test(s.code) && /^import /m.test(s.code);
      const code = whole ? s.code : `import { App, TerraformStack } from 'cdktf';\nimport { mesh, platform, secrets, SecretValue, TerraformBridge } from 'cdk-converge';\n`
        + `const app = new App();\nconst stack = new TerraformStack(app, 'doc');\n${s.code}\napp.synth();\nvoid [mesh, platform, secrets, SecretValue, TerraformBridge, stack];\n`;
      const f = `doc${i}.ts`;
      fs.writeFileSync(path.join(app, f), `// ${s.file}:${s.line}\n${code}${/^(import|export) /m.test(code) ? '' : '\nexport {};\n'}`);
      return f;
    });
    fs.writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'commonjs', strict: true, skipLibCheck: true, noEmit: true, types: ['node'] }, include: ['*.ts'],
    }));
    const tsc = await run(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', app], { cwd: app });
    expect(tsc.stdout).toBe('');
    for (const [i, f] of files.entries()) {
      const out = path.join(app, `out${i}`);
      const env = { ...process.env, CDKTF_OUTDIR: out, DB_PASSWORD: 'x', QUICKSTART_DB_PASSWORD: 'x' };
      const synth = await run(process.execPath, [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), f], { cwd: app, env });
      expect({ sample: `${ts[i].file}:${ts[i].line}`, stderr: synth.stderr, status: synth.status }).toEqual({ sample: `${ts[i].file}:${ts[i].line}`, stderr: '', status: 0 });
      expect(fs.readdirSync(path.join(out, 'stacks')).length).toBeGreaterThan(0);
    }
  } finally {
    fs.rmSync(app, { recursive: true, force: true });
  }
});

test('every other Python sample of the README and docs/ compiles and names only real constructs and props', () => {
  const dir = tempDir('converge-py-doc-samples-');
  try {
    const files = OTHER.filter((s) => s.lang === 'python').map((s, i) => {
      const f = path.join(dir, `doc_${i}.py`);
      fs.writeFileSync(f, s.code);
      return f;
    });
    expect(files.length).toBeGreaterThan(0);
    const compile = spawnSync('python3', ['-m', 'py_compile', ...files], { encoding: 'utf8' });
    expect(compile.stderr).toBe('');
    const check = spawnSync('python3', [path.join(__dirname, 'check_python_samples.py'), path.join(ROOT, '.jsii'), ...files], { encoding: 'utf8' });
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
