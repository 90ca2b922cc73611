import * as fs from 'fs';
import * as path from 'path';
import { Output } from '../output';

export interface InitOptions {
  readonly stack?: string;
}

function ownVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** The files of a new app, by relative path. */
export function appFiles(name: string, stack: string, version: string): Record<string, string> {
  const pkg = {
    name, version: '0.1.0', private: true,
    scripts: {
      synth: 'tsx main.ts',
      plan: 'converge plan',
      apply: 'converge apply',
      emulator: 'converge emulator --env-file .converge-emulator.env',
      test: 'jest',
    },
    dependencies: { 'cdk-converge': `^${version}`, 'cdktf': '^0.21.0', 'constructs': '^10.4.2' },
    devDependencies: { '@types/jest': '^29.5.14', '@types/node': '^20.19.0', 'jest': '^29.7.0', 'ts-jest': '^29.4.0', 'tsx': '^4.20.0', 'typescript': '~5.9.2' },
  };
  const cdktf = { language: 'typescript', app: 'npx tsx main.ts', output: 'cdktf.out', projectId: name, sendCrashReports: 'false', terraformProviders: [], terraformModules: [] };
  const tsconfig = {
    compilerOptions: { target: 'ES2022', module: 'commonjs', strict: true, esModuleInterop: true, skipLibCheck: true, noEmit: true, types: ['node', 'jest'] },
    include: ['*.ts'],
  };
  return {
    'package.json': `${JSON.stringify(pkg, null, 2)}\n`,
    'cdktf.json': `${JSON.stringify(cdktf, null, 2)}\n`,
    'tsconfig.json': `${JSON.stringify(tsconfig, null, 2)}\n`,
    'jest.config.js': "module.exports = { testEnvironment: 'node', testMatch: ['**/*.test.ts'], transform: { '^.+\\\\.ts$': 'ts-jest' } };\n",
    '.gitignore': 'node_modules/\ncdktf.out/\n.converge/\n.converge-emulator.env\n',
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

A cdktf app whose constructs converge applies (https://www.npmjs.com/package/cdk-converge).

\`\`\`sh
npm install
npx converge emulator --env-file .converge-emulator.env &   # the platform, secrets and mesh APIs, locally
set -a; . ./.converge-emulator.env; set +a
npx converge plan            # what would change
npx converge apply           # converge it
npm test                     # unit test of the stack's desired state
\`\`\`

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
  if (fs.existsSync(target) && fs.readdirSync(target).filter((f) => f !== '.git').length > 0) {
    throw new Error(`${target} is not empty: converge init creates a new app in an empty directory`);
  }
  const name = path.basename(target).toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'converge-app';
  const stack = opts.stack ?? 'dev';
  if (!/^[A-Za-z0-9_-]+$/.test(stack)) throw new Error(`--stack "${stack}": letters, digits, - and _ only`);
  fs.mkdirSync(target, { recursive: true });
  for (const [file, text] of Object.entries(appFiles(name, stack, ownVersion()))) fs.writeFileSync(path.join(target, file), text);
  out.result(`Created a converge app in ${target} (stack ${stack}).`);
  out.info('Next: npm install, start the emulator (npx converge emulator --env-file .converge-emulator.env), then npx converge plan.');
  return 0;
}
