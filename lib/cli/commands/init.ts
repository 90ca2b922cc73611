import * as fs from 'fs';
import * as path from 'path';
import { convergeDependency, OWN_ROOT } from '../install-source';
import { Output } from '../output';
import { vendoredPath, vendorPackage } from '../vendor-package';
import { pythonAppFiles, synthEnvironmentNote } from './init-python';

export interface InitOptions {
  readonly stack?: string;
  /** The app's dependency on cdk-converge (default: what the running converge was installed from; for Python, `cdk-converge>=VERSION`). */
  readonly convergeSpec?: string;
  /** The app's language, as `cdk init app --language`: typescript or python (default: typescript). */
  readonly language?: string;
}

const LANGUAGES = ['typescript', 'python'];

const ENV_FILE = '.converge-emulator.env';

/**
 * The files of a new app, by relative path. `convergeSpec` is its dependency on cdk-converge;
 * `installLinks`: that is a directory, installed as a copy rather than a link (its peers resolve in the app).
 */
export function appFiles(name: string, stack: string, convergeSpec: string, installLinks = false): Record<string, string> {
  const pkg = {
    name, version: '0.1.0', private: true,
    scripts: {
      synth: 'tsx main.ts',
      // The app runs under tsx, which strips types without checking them: plan and apply type-check first.
      typecheck: 'tsc --noEmit',
      plan: 'tsc --noEmit && converge plan',
      apply: 'tsc --noEmit && converge apply',
      emulator: `converge emulator --write-env ${ENV_FILE}`,
      test: 'jest',
    },
    dependencies: { 'cdk-converge': convergeSpec, 'cdktf': '^0.21.0', 'constructs': '^10.4.2' },
    devDependencies: { '@types/jest': '^29.5.14', '@types/node': '^20.19.0', 'jest': '^29.7.0', 'ts-jest': '^29.4.0', 'tsx': '^4.20.0', 'typescript': '~5.9.2' },
  };
  const cdktf = { language: 'typescript', app: 'npx tsx main.ts', output: 'cdktf.out', projectId: name, sendCrashReports: 'false', terraformProviders: [], terraformModules: [] };
  const tsconfig = {
    compilerOptions: { target: 'ES2022', module: 'commonjs', strict: true, esModuleInterop: true, skipLibCheck: true, noEmit: true, types: ['node', 'jest'] },
    include: ['*.ts'],
  };
  return {
    ...(installLinks ? { '.npmrc': '# cdk-converge comes from a directory: install it as a copy, not a link\ninstall-links=true\n' } : {}),
    'package.json': `${JSON.stringify(pkg, null, 2)}\n`,
    'cdktf.json': `${JSON.stringify(cdktf, null, 2)}\n`,
    'tsconfig.json': `${JSON.stringify(tsconfig, null, 2)}\n`,
    'jest.config.js': "module.exports = { testEnvironment: 'node', testMatch: ['**/*.test.ts'], transform: { '^.+\\\\.ts$': 'ts-jest' } };\n",
    '.gitignore': `node_modules/\ncdktf.out/\n.converge/\n${ENV_FILE}\n# Terraform's local state (a bridge) and saved plans (converge plan --out): they hold what was applied\nterraform.tfstate*\nterraform.*.tfstate*\n*.plan\n`,
    'main.ts': `import { App, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { platform, secrets, SecretValue } from 'cdk-converge';

/** The stack: an organization and a secret for its application. */
export class AppStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    const org = new platform.Organization(this, 'org', { name: '${name.replace(/[^a-z0-9-]/g, '-')}', email: 'ops@example.com' });
    new secrets.KvSecret(this, 'config', {
      path: \`\${org.name}/config\`,
      data: {
        greeting: 'hello',
        // A secret from the environment of \`converge plan\`/\`apply\`, never written in cdktf.out or state:
        // apiKey: SecretValue.fromEnv('API_KEY'),
      },
    });
  }
}

if (require.main === module) {
  const app = new App();
  new AppStack(app, '${stack}');
  app.synth();
}
`,
    'main.test.ts': `import { Testing } from 'cdktf';
import { ConvergeTesting } from 'cdk-converge';
import { AppStack } from './main';

test('the stack holds an organization and a KV secret', () => {
  const stack = new AppStack(Testing.app(), 'test');
  const desired = ConvergeTesting.desiredState(stack);
  expect(Object.keys(desired.resources).sort()).toEqual(['config', 'org']);
  expect(desired.resources.config.kind).toBe('secrets.KvSecret');
});
`,
    'README.md': `# ${name}

A cdktf app whose constructs converge applies (https://www.npmjs.com/package/cdk-converge). converge's
documentation ships with it: \`node_modules/cdk-converge/docs/\` (\`npx converge --help\` prints where).

\`\`\`sh
npm install
export CHECKPOINT_DISABLE=1  # cdktf's telemetry: offline it prints an [ERROR] … ENOTFOUND
npx converge emulator --write-env ${ENV_FILE} --detach   # the platform, secrets and mesh APIs, locally; returns when ready
set -a; . ./${ENV_FILE}; set +a
npm run plan                 # type-check, then: what would change
npm run apply                # type-check, then converge it
npm test                     # unit test of the stack's desired state
npx converge emulator stop ${ENV_FILE}                  # stop the emulator
\`\`\`

${synthEnvironmentNote('process.env.ORG_NAME ?? \'default-org\'')}
\`npx converge plan\` runs \`main.ts\` under tsx, which does not check types: a mistyped prop then shows
only as a runtime check. \`npm run plan\` and \`npm run apply\` run \`tsc --noEmit\` first
(\`npm run typecheck\` alone).

Without \`--detach\`, \`converge emulator --write-env FILE\` runs in the foreground; from another shell,
\`npx converge emulator wait FILE\` returns once it is ready.

Against the real services, set \`PLATFORM_ADDRESS\`/\`PLATFORM_TOKEN\`, \`SECRETS_ADDR\`/\`SECRETS_TOKEN\`
and \`MESH_HTTP_ADDR\`/\`MESH_HTTP_TOKEN\` instead.

converge keeps what it applied in \`.converge/\`, protected by a key it creates there
(\`.converge/state.key\`). To share state (a team, CI), make one key and give it to every run:
\`export CONVERGE_STATE_KEY=$(npx converge keygen)\` (or \`openssl rand -hex 32\`).
`,
  };
}

/** `converge init [dir]`: a new cdktf app that uses converge, ready to plan against the emulator. */
export async function initCommand(dir: string | undefined, opts: InitOptions, out: Output): Promise<number> {
  const target = path.resolve(dir ?? '.');
  const name = path.basename(target).toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'converge-app';
  const stack = opts.stack ?? 'dev';
  if (!/^[A-Za-z0-9_-]+$/.test(stack)) throw new Error(`--stack "${stack}": letters, digits, - and _ only`);
  const language = (opts.language ?? 'typescript').toLowerCase();
  if (!LANGUAGES.includes(language)) throw new Error(`--language "${opts.language}": one of ${LANGUAGES.join(', ')}`);
  if (language === 'python') return initPython(target, name, stack, opts, out);
  let source = opts.convergeSpec ? { spec: opts.convergeSpec, from: opts.convergeSpec, installLinks: opts.convergeSpec.startsWith('file:') } : convergeDependency();
  // A tarball or directory on this machine: the app gets its own copy (vendor/), so that it installs anywhere.
  const vendorFrom = !opts.convergeSpec && source.spec.startsWith('file:') ? source.spec.slice('file:'.length) : undefined;
  if (vendorFrom) source = { spec: `file:${vendoredPath()}`, from: `${source.from}, copied into ${vendoredPath()}`, installLinks: false };
  const files = appFiles(name, stack, source.spec, source.installLinks);
  // Files already there are never overwritten; anything else in the directory is left alone.
  const existing = [...Object.keys(files), ...(vendorFrom ? [vendoredPath()] : [])].filter((f) => fs.existsSync(path.join(target, f))).sort();
  if (existing.length) {
    throw new Error(`${target} already has ${existing.join(', ')}: converge init overwrites no file (move them away or init another directory)`);
  }
  fs.mkdirSync(target, { recursive: true });
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(target, file), text, { flag: 'wx' });
  if (vendorFrom) vendorPackage(vendorFrom, target);
  out.result(`Created a converge app in ${target} (stack ${stack}), depending on cdk-converge from ${source.from}.`);
  if (vendorFrom) out.info(`Commit ${vendoredPath()} with the app: teammates and CI install cdk-converge from it.`);
  out.info(`Next: npm install; export CHECKPOINT_DISABLE=1; npx converge emulator --write-env ${ENV_FILE} --detach; set -a; . ./${ENV_FILE}; set +a; npm run plan.`);
  return 0;
}

/** `converge init --language python`: the Python app's files; cdk-converge comes from pip (a release, or a wheel). */
function initPython(target: string, name: string, stack: string, opts: InitOptions, out: Output): number {
  const version = (JSON.parse(fs.readFileSync(path.join(OWN_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const files = pythonAppFiles(name, stack, opts.convergeSpec ?? `cdk-converge>=${version}`);
  const existing = Object.keys(files).filter((f) => fs.existsSync(path.join(target, f))).sort();
  if (existing.length) {
    throw new Error(`${target} already has ${existing.join(', ')}: converge init overwrites no file (move them away or init another directory)`);
  }
  fs.mkdirSync(target, { recursive: true });
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(target, file), text, { flag: 'wx' });
  out.result(`Created a converge app in Python in ${target} (stack ${stack}).`);
  out.info('Next: python3 -m venv .venv; . .venv/bin/activate; pip install -r requirements.txt; export CHECKPOINT_DISABLE=1; ' +
    `converge emulator --write-env ${ENV_FILE} --detach; set -a; . ./${ENV_FILE}; set +a; converge plan.`);
  return 0;
}
