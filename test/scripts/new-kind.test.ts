import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, tempDir } from '../support/harness';

// `npm run new-kind` (scripts/new-kind.js) on a copy of lib/ and the test support the samples files
// import: what it writes and registers type-checks (with the jsii build's unused-name checks), and it
// refuses what it must refuse without writing anything.

const SCRIPT = path.join(ROOT, 'scripts', 'new-kind.js');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
/** What the generated files import beyond lib/: the samples' types and the helpers of the kv family's samples. */
const SUPPORT = ['test/support', 'test/reliability/prop-arbitraries.ts', 'test/schema/full-samples.ts', 'test/schema/full-sample-helpers.ts',
  'test/schema/spec-field-readers.ts', 'test/secrets/kv/kv.samples.ts'];

function newKind(root: string, ...args: string[]) {
  return spawnSync(process.execPath, [SCRIPT, ...args, '--root', root], { encoding: 'utf8' });
}

/** Every file under `dir`, relative, with its content. */
function snapshot(dir: string): Map<string, string> {
  return new Map(fs.readdirSync(dir, { recursive: true }).map(String).filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
}

describe('npm run new-kind', () => {
  let root: string;

  beforeAll(() => {
    root = tempDir('converge-new-kind-');
    fs.cpSync(path.join(ROOT, 'lib'), path.join(root, 'lib'), { recursive: true, filter: (f) => !f.endsWith('.js') && !f.endsWith('.d.ts') });
    for (const p of SUPPORT) fs.cpSync(path.join(ROOT, p), path.join(root, p), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
  });

  test('an unknown domain, an existing kind and a bad name are refused, and nothing is written', () => {
    const before = snapshot(path.join(root, 'lib'));
    const unknown = newKind(root, 'storage', 'bucket', 'Bucket');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown domain "storage": one of platform, secrets, mesh/);
    const existing = newKind(root, 'secrets', 'kv', 'KvSecret');
    expect(existing.status).toBe(2);
    expect(existing.stderr).toMatch(/secrets\.KvSecret exists: lib\/secrets\/kv\/kv-secret(\.schema)?\.ts declares it/);
    const badName = newKind(root, 'mesh', 'acl', 'acl-binding');
    expect(badName.status).toBe(2);
    expect(badName.stderr).toMatch(/PascalCase/);
    expect(snapshot(path.join(root, 'lib'))).toEqual(before);
  });

  test('--dry-run prints the files and changes nothing', () => {
    const before = snapshot(path.join(root, 'lib'));
    const r = newKind(root, 'secrets', 'kv', 'KvLabel', '--dry-run');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/--- new lib\/secrets\/kv\/kv-label\.ts/);
    expect(r.stdout).toMatch(/--- changed lib\/secrets\/kinds\.ts/);
    expect(snapshot(path.join(root, 'lib'))).toEqual(before);
  });

  test('one kind of each domain (a family that exists, new ones): written, registered, and it all type-checks', () => {
    for (const args of [['secrets', 'kv', 'KvLabel'], ['platform/gadget', 'GadgetPolicy'], ['mesh', 'exported-service', 'ExportedServices']]) {
      const r = newKind(root, ...args);
      expect({ args, status: r.status, stderr: r.stderr }).toEqual({ args, status: 0, stderr: '' });
    }
    const written = [
      'lib/secrets/kv/kv-label.ts', 'lib/secrets/kv/kv-label.schema.ts', 'lib/secrets/kv/kv-label.handler.ts', 'test/secrets/kv/kv-label.test.ts',
      'lib/platform/gadget/gadget-policy.ts', 'lib/platform/gadget/gadget-policy.handler.ts', 'test/platform/gadget/gadget.samples.ts',
      'lib/mesh/exported-service/exported-services.handler.ts', 'test/mesh/exported-service/exported-service.samples.ts',
    ];
    for (const f of written) expect({ f, exists: fs.existsSync(path.join(root, f)) }).toEqual({ f, exists: true });
    expect(fs.readFileSync(path.join(root, 'lib/secrets/kinds.ts'), 'utf8')).toMatch(/import \{ kvLabelHandler \} from '\.\/kv\/kv-label\.handler';[\s\S]*resources: \[kvLabelHandler, /);
    expect(fs.readFileSync(path.join(root, 'lib/platform/index.ts'), 'utf8')).toMatch(/export \* from '\.\/gadget\/gadget-policy';\n$/);
    const kvSamples = fs.readFileSync(path.join(root, 'test/secrets/kv/kv.samples.ts'), 'utf8');
    expect(kvSamples).toMatch(/'secrets\.KvSecret': \{[\s\S]*'secrets\.KvLabel': \{/);

    const tsconfig = {
      compilerOptions: {
        target: 'ES2022', module: 'commonjs', lib: ['es2022'], strict: true, esModuleInterop: true, skipLibCheck: true, experimentalDecorators: true,
        noEmit: true, isolatedModules: true, types: ['node', 'jest'], noUnusedLocals: true, noUnusedParameters: true,
      },
      files: [...written, 'lib/secrets/kinds.ts', 'lib/platform/kinds.ts', 'lib/mesh/kinds.ts', 'lib/index.ts', 'test/secrets/kv/kv.samples.ts',
        'test/platform/gadget/gadget-policy.test.ts', 'test/mesh/exported-service/exported-services.test.ts'],
    };
    fs.writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = spawnSync(process.execPath, [TSC, '-p', path.join(root, 'tsconfig.json')], { encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });

  test('a kind it wrote is refused the second time', () => {
    const again = newKind(root, 'secrets', 'kv', 'KvLabel');
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/secrets\.KvLabel exists/);
  });
});
