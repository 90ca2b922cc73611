#!/usr/bin/env node
/**
 * `npm run new-kind -- <domain> <family> <KindName> [--root DIR] [--dry-run]`
 * (or `<domain>/<family> <KindName>`): the skeleton of a new resource kind, at the places
 * docs/architecture.md ("Adding a kind") names:
 *
 *   lib/<domain>/<family>/<kind>.ts           the construct (props with doc comments and `@default`)
 *   lib/<domain>/<family>/<kind>.schema.ts    its one declaration of fields
 *   lib/<domain>/<family>/<kind>.handler.ts   its lifecycle and the permissions it needs (TODOs that throw)
 *   test/<domain>/<family>/<family>.samples.ts  its samples entry (the file made or extended)
 *   test/<domain>/<family>/<kind>.test.ts     a synth test to grow
 *
 * and registers the handler in lib/<domain>/kinds.ts and the construct in lib/<domain>/index.ts.
 * It refuses an unknown domain, a kind that exists, and a file that exists, before writing anything.
 * `--dry-run` prints what it would write and change; `--root DIR` works on another checkout (its tests).
 */
'use strict';
const fs = require('fs');
const path = require('path');

const USAGE = 'usage: npm run new-kind -- <domain> <family> <KindName> [--root DIR] [--dry-run]\n'
  + '  e.g. npm run new-kind -- secrets kv KvSecretLabel';

/** Per domain: the provider class, the handler's type and permissions, the wire case of its bodies. */
const DOMAINS = {
  platform: { provider: 'PlatformProvider', wireCase: 'kebab', apiText: 'the platform API' },
  secrets: { provider: 'SecretsProvider', wireCase: 'snake', apiText: 'the secrets service' },
  mesh: { provider: 'MeshProvider', wireCase: 'pascal', apiText: 'the mesh API' },
};

function fail(message) {
  process.stderr.write(`new-kind: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const positional = [];
  let root = path.resolve(__dirname, '..');
  let dryRun = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--dry-run') dryRun = true;
    else if (argv[i] === '--root') root = path.resolve(argv[++i] ?? fail('--root needs a directory'));
    else if (argv[i] === '--help' || argv[i] === '-h') { process.stdout.write(`${USAGE}\n`); process.exit(0); }
    else if (argv[i].startsWith('--')) fail(`unknown option ${argv[i]}\n${USAGE}`);
    else positional.push(argv[i]);
  }
  if (positional.length === 2 && positional[0].includes('/')) positional.splice(0, 1, ...positional[0].split('/'));
  if (positional.length !== 3) fail(USAGE);
  const [domain, family, kindName] = positional;
  return { domain, family, kindName, root, dryRun };
}

const kebab = (s) => s.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/([A-Z])([A-Z][a-z])/g, '$1-$2').toLowerCase();
const constant = (s) => kebab(s).replace(/-/g, '_').toUpperCase();
const camel = (s) => s.charAt(0).toLowerCase() + s.slice(1);

/** Every file under `dir` (recursively) whose name ends with `suffix`. */
function filesUnder(dir, suffix) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith(suffix)).map((f) => path.join(dir, f));
}

/** The file of lib/<domain> that declares `pattern` (where the other engineers' moves put it), relative to `fromDir`, without `.ts`. */
function moduleDeclaring(root, domain, pattern, fromDir, what) {
  const file = filesUnder(path.join(root, 'lib', domain), '.ts').find((f) => pattern.test(fs.readFileSync(f, 'utf8')));
  if (!file) fail(`no file of lib/${domain} declares ${what}`);
  return relModule(fromDir, file);
}

function relModule(fromDir, file) {
  const r = path.relative(fromDir, file).replace(/\.ts$/, '').split(path.sep).join('/');
  return r.startsWith('.') ? r : `./${r}`;
}

function plan({ domain, family, kindName, root }) {
  if (!DOMAINS[domain] || !fs.existsSync(path.join(root, 'lib', domain, 'kinds.ts'))) {
    fail(`unknown domain "${domain}": one of ${Object.keys(DOMAINS).filter((d) => fs.existsSync(path.join(root, 'lib', d, 'kinds.ts'))).join(', ')}`);
  }
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(family)) fail(`family "${family}" must be a folder name in kebab-case (kv, variable-set, config-entry)`);
  if (!/^[A-Z][A-Za-z0-9]*$/.test(kindName)) fail(`kind name "${kindName}" must be a construct class name in PascalCase (KvSecret)`);
  const kind = `${domain}.${kindName}`;
  const d = DOMAINS[domain];
  const libDomain = path.join(root, 'lib', domain);
  const existing = filesUnder(libDomain, '.ts').find((f) => {
    const text = fs.readFileSync(f, 'utf8');
    return text.includes(`kind: '${kind}'`) || new RegExp(`export (abstract )?class ${kindName}\\b`).test(text);
  });
  if (existing) fail(`${kind} exists: ${path.relative(root, existing)} declares it`);

  const name = kebab(kindName);
  const SCHEMA = constant(kindName);
  const handlerName = `${camel(kindName)}Handler`;
  const libDir = path.join(libDomain, family);
  const testDir = path.join(root, 'test', domain, family);
  const core = (m) => relModule(libDir, path.join(root, 'lib', 'core', m));
  const provider = moduleDeclaring(root, domain, new RegExp(`export class ${d.provider}\\b`), libDir, d.provider);

  const files = new Map();
  files.set(path.join(libDir, `${name}.ts`), constructFile({ kindName, name, SCHEMA, d, core, provider }));
  files.set(path.join(libDir, `${name}.schema.ts`), schemaFile({ kind, domain, SCHEMA, d, core }));
  files.set(path.join(libDir, `${name}.handler.ts`), handlerFile({ kind, domain, family, name, SCHEMA, handlerName, core, root, libDir }));
  files.set(path.join(testDir, `${name}.test.ts`), testFile({ kind, kindName, domain }));
  for (const f of files.keys()) if (fs.existsSync(f)) fail(`${path.relative(root, f)} exists: not overwriting it`);

  const samplesPath = path.join(testDir, `${family}.samples.ts`);
  const entry = samplesEntry({ kind, kindName, name });
  const samples = fs.existsSync(samplesPath) ? addSamplesEntry(samplesPath, fs.readFileSync(samplesPath, 'utf8'), entry, kindName, domain)
    : newSamplesFile({ family, domain, kindName, entry });

  const kindsPath = path.join(libDomain, 'kinds.ts');
  const indexPath = path.join(libDomain, 'index.ts');
  const kinds = registerHandler(kindsPath, fs.readFileSync(kindsPath, 'utf8'), handlerName, `./${family}/${name}.handler`);
  const index = `${fs.readFileSync(indexPath, 'utf8').replace(/\n*$/, '\n')}export * from './${family}/${name}';\n`;
  return { files, edits: new Map([[samplesPath, samples], [kindsPath, kinds], [indexPath, index]]) };
}

function constructFile({ kindName, name, SCHEMA, d, core, provider }) {
  return `import { Construct } from 'constructs';
import { Resource, ResourceProps } from '${core('constructs/resource')}';
import { KindSchema } from '${core('schema')}';
import { ${d.provider} } from '${provider}';
import { ${SCHEMA} } from './${name}.schema';

/** Props of a ${kindName}. */
export interface ${kindName}Props extends ResourceProps {
  // TODO: one prop per field of ${name}.schema.ts, each with a doc comment (and \`@default\` when optional).
  /** The object's name. */
  readonly name: string;
  /**
   * How to reach ${d.apiText}.
   * @default - the stack's ${d.provider}, else the environment variables
   */
  readonly provider?: ${d.provider};
}

/**
 * TODO: what a ${kindName} is on ${d.apiText}, what a change does (in place, or replaces it), when it is removed.
 *
 * @example
 * new ${kindName}(stack, 'example', { name: 'example' });
 */
export class ${kindName} extends Resource {
  /** The object's name. */
  public readonly name: string;

  constructor(scope: Construct, id: string, props: ${kindName}Props) {
    super(scope, id, ${SCHEMA}.kind, ${SCHEMA}.api, props, props.provider);
    this.name = props.name;
  }

  /** @internal */
  protected _schema(): KindSchema {
    return ${SCHEMA};
  }
}
`;
}

function schemaFile({ kind, domain, SCHEMA, d, core }) {
  return `import { KindSchema } from '${core('schema')}';

/** \`${kind}\`: TODO: the object on ${d.apiText}, its path and the body the spec lists (its table). */
export const ${SCHEMA}: KindSchema = {
  kind: '${kind}',
  api: '${domain}',
  wireCase: '${d.wireCase}',
  fields: {
    // TODO: every field of the spec's request body (test/schema/kind-schemas.test.ts compares them with the samples' specFields).
    name: { type: 'string', required: true },
  },
};
`;
}

function handlerFile({ kind, domain, family, name, SCHEMA, handlerName, core, root, libDir }) {
  const imports = [
    `import { FieldChange, HandlerContext, Observed, PriorRecord, Spec, Written } from '${core('engine/handler')}';`,
    `import { resourceMetadata } from '${core('schema')}';`,
  ];
  let type = 'ResourceHandler';
  let permissions;
  if (domain === 'platform') {
    imports.push(`import { PlatformResourceHandler } from '${moduleDeclaring(root, domain, /export type PlatformResourceHandler\b/, libDir, 'PlatformResourceHandler')}';`);
    type = 'PlatformResourceHandler';
    permissions = `  // What the platform token needs (\`converge policy\` prints it; the preflight asks the organization's permissions).
  permissions: {
    needs: (s) => \`TODO: manage ${name}s named "\${String(s.name)}"\`,
  },`;
  } else if (domain === 'secrets') {
    imports.push(`import { policyPath, seg } from '${moduleDeclaring(root, domain, /export const policyPath\b/, libDir, 'policyPath')}';`);
    permissions = `  // The ACL paths its requests need (\`converge policy\`, LeastPrivilegePolicy and the preflight collect them).
  permissions: (s) => [policyPath(\`TODO-mount/${family}/\${seg(s.name, 'name')}\`, 'create', 'read', 'update', 'delete')],`;
  } else {
    permissions = `  // TODO: the ACL rule the kind needs, for \`converge policy\` and the preflight (today its MESH_PERMISSIONS and MESH_RULES entries, lib/mesh/permissions.ts).`;
  }
  if (type === 'ResourceHandler') imports[0] = imports[0].replace('PriorRecord, ', 'PriorRecord, ResourceHandler, ');
  imports.push(`import { ${SCHEMA} } from './${name}.schema';`);
  return `${imports.join('\n')}

/** Not written yet: each call says so, naming the object. */
function todo(ctx: HandlerContext, what: string): Error {
  return new Error(\`\${ctx.address}: ${kind} cannot \${what} yet (a skeleton of npm run new-kind)\`);
}

/**
 * Lifecycle of \`${kind}\`. TODO: its identity (\`naturalId\`, or the server's id and \`find\` after a
 * crash), the client calls (the family's client), what changes in place and what replaces it.
 */
export const ${handlerName}: ${type} = {
  ...resourceMetadata(${SCHEMA}),
${permissions}

  naturalId(spec: Spec): string | undefined {
    return String(spec.name);
  },

  async read(ctx: HandlerContext, _id: string): Promise<Observed | undefined> {
    throw todo(ctx, 'read');
  },

  async create(ctx: HandlerContext, _spec: Spec): Promise<Written> {
    throw todo(ctx, 'create');
  },

  async update(ctx: HandlerContext, _id: string, _spec: Spec, _changes: readonly FieldChange[], _prior: PriorRecord): Promise<Written> {
    throw todo(ctx, 'update');
  },

  async delete(ctx: HandlerContext, _id: string, _prior: PriorRecord): Promise<void> {
    throw todo(ctx, 'delete');
  },
};
`;
}

function testFile({ kind, kindName, domain }) {
  return `import { App, TerraformStack } from 'cdktf';
import { ConvergeTesting } from '../../../lib';
import { ${kindName} } from '../../../lib/${domain}';

// TODO: what the kind refuses at synth (each field's rules), and an e2e test through the CLI against the emulator.
describe('${kind}', () => {
  test('synthesizes its spec', () => {
    const stack = new TerraformStack(new App(), 'test');
    new ${kindName}(stack, 'example', { name: 'example' });
    expect(ConvergeTesting.desiredState(stack).resources.example).toMatchObject({ kind: '${kind}', spec: { name: 'example' } });
  });
});
`;
}

function samplesEntry({ kind, kindName, name }) {
  return `  '${kind}': {
    // TODO: each part is checked by a coverage test (see test/support/samples.ts): fill it in as the kind grows.
    sample: {
      weight: 1,
      build: (stack, i) => { new ${kindName}(stack, \`${name}\${i}\`, { name: \`t-${name}-\${i}\` }); },
      count: async () => { throw new Error('TODO: count the ${name} samples on the emulator'); },
    },
    full: {
      address: 'full-${name}',
      build: (stack) => { new ${kindName}(stack, 'full-${name}', { name: 'full-${name}' }); },
    },
    // TODO: read the fields from the spec's table of the request body (test/support/spec-tables.ts).
    specFields: () => [{ name: 'name' }],
    props: {
      base: { name: '${name}' },
      invalid: { name: fc.constant('') },
    },
  },
`;
}

function newSamplesFile({ family, domain, kindName, entry }) {
  return `import fc from 'fast-check';
import { ${kindName} } from '../../../lib/${domain}';
import { FamilySamples } from '../../support/samples';

/** The samples of the ${family} family's kinds: see test/support/samples.ts. */
export const SAMPLES: FamilySamples = {
${entry}};
`;
}

/** The family's samples file with the entry added last, and the construct (and fast-check) imported. */
function addSamplesEntry(file, text, entry, kindName, domain) {
  const end = text.lastIndexOf('\n};');
  if (!/export const SAMPLES: FamilySamples = \{/.test(text) || end < 0) fail(`${file} has no \`export const SAMPLES: FamilySamples = { … };\` to add to`);
  let out = `${text.slice(0, end + 1)}${entry}${text.slice(end + 1)}`;
  const libImport = new RegExp(`import \\{ ([^}]*) \\} from '\\.\\./\\.\\./\\.\\./lib/${domain}';`);
  const m = libImport.exec(out);
  if (m) out = out.replace(m[0], `import { ${[...m[1].split(',').map((s) => s.trim()).filter(Boolean), kindName].sort().join(', ')} } from '../../../lib/${domain}';`);
  else out = `import { ${kindName} } from '../../../lib/${domain}';\n${out}`;
  if (!/^import fc from 'fast-check';/m.test(out)) out = `import fc from 'fast-check';\n${out}`;
  return out;
}

/** kinds.ts with the handler imported and first in the domain's resources. */
function registerHandler(file, text, handlerName, module) {
  const list = /\bresources(?::\s*readonly\s+\w+\[\])?\s*[:=]\s*\[/.exec(text);
  if (!list) fail(`${file}: no \`resources: [\` list to register ${handlerName} in`);
  const at = list.index + list[0].length;
  let out = `${text.slice(0, at)}${handlerName}, ${text.slice(at)}`;
  const imports = [...out.matchAll(/^import [^;]*;$/gm)];
  const last = imports[imports.length - 1];
  const line = `import { ${handlerName} } from '${module}';`;
  out = last ? `${out.slice(0, last.index + last[0].length)}\n${line}${out.slice(last.index + last[0].length)}` : `${line}\n${out}`;
  return out;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const { files, edits } = plan(args);
  const rel = (f) => path.relative(args.root, f);
  if (args.dryRun) {
    for (const [f, text] of files) process.stdout.write(`--- new ${rel(f)}\n${text}\n`);
    for (const [f, text] of edits) process.stdout.write(`--- ${fs.existsSync(f) ? 'changed' : 'new'} ${rel(f)}\n${text}\n`);
    return;
  }
  for (const [f, text] of [...files, ...edits]) {
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, text);
  }
  process.stdout.write(`${[...files.keys()].map((f) => `created ${rel(f)}`).join('\n')}\n${[...edits.keys()].map((f) => `updated ${rel(f)}`).join('\n')}\n`
    + 'Left by hand (docs/architecture.md, "Adding a kind"): the fields, the client calls, the emulator route, the permissions, the samples, the docs.\n');
}

main();
