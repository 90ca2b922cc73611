import * as fs from 'fs';
import * as path from 'path';
import { DesiredStack } from '../../core/model';
import { findAppConfig } from '../../core/synth/read-synth';
import { generateCode, Language } from '../migrate/codegen';
import { GeneratedConstruct, Migration, planMigration } from '../migrate/plan-migration';
import { readTerraformState } from '../migrate/tf-state';
import { wayOut } from '../migrate/way-out';
import { Output } from '../output';
import { tuning, withLockedState } from '../session';
import { AppOptions, loadStacks } from '../workspace';
import { importObject } from './import';

export interface MigrateOptions extends AppOptions {
  readonly state: string;
  readonly language?: string;
  readonly out?: string;
  readonly className?: string;
  /** `--no-import`: write the code only. */
  readonly import?: boolean;
}

/**
 * `converge migrate terraform`: the code of a Terraform state's tfe, vault and consul resources
 * (secrets read from the environment, never written), each object imported as `converge import`
 * does, and the way out of Terraform.
 */
export async function migrateTerraformCommand(opts: MigrateOptions, out: Output): Promise<number> {
  const language = (opts.language ?? 'typescript') as Language;
  if (language !== 'typescript' && language !== 'python') throw new Error(`--language "${opts.language}" is not one converge writes (typescript, python)`);
  if (!fs.existsSync(opts.state)) throw new Error(`${opts.state}: no such file (give terraform.tfstate, or the output of terraform state pull or terraform show -json)`);
  const resources = readTerraformState(fs.readFileSync(opts.state, 'utf8'), opts.state);
  const migration = planMigration(resources);
  const file = path.resolve(opts.out ?? (language === 'python' ? 'imported.py' : 'imported.ts'));
  const className = opts.className ?? 'ImportedStack';
  if (!/^[A-Z][A-Za-z0-9_]*$/.test(className)) throw new Error(`--class-name "${className}" is not a class name (a capital letter, then letters, digits or _)`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, generateCode(migration, language, path.basename(opts.state), className));
  out.result(`Wrote ${path.relative(process.cwd(), file) || file}: ${migration.constructs.length} construct(s) in ${className}, `
    + `from ${resources.length} resource(s) of ${opts.state}.`);

  const secrets = migration.constructs.flatMap((c) => c.secrets.map((s) => ({ s, c })));
  if (secrets.length) {
    out.result('');
    out.result(`Set these ${secrets.length} variable(s) where converge runs (each value is in the old state at the resource and attribute shown; never in the code):`);
    const width = Math.max(...secrets.map(({ s }) => s.name.length));
    for (const { s, c } of secrets) out.result(`  ${s.name.padEnd(width)}  ${c.tfAddress}  ${s.attributePath}`);
  }

  const status = opts.import === false ? 0 : await importAll(migration, opts, className, out);

  const way = wayOut(resources, new Set(migration.constructs.map((c) => c.tfAddress)));
  if (way.stateRm.length) {
    out.result('');
    out.result('Then make Terraform forget them, without destroying them: either run');
    way.stateRm.forEach((l) => out.result(`  ${l}`));
    out.result('or, with Terraform 1.7 and later, add these blocks to its configuration (and remove the resource blocks) before its next apply:');
    way.removedBlocks.forEach((b) => out.result(b.split('\n').map((l) => (l ? `  ${l}` : '')).join('\n')));
    if (way.partly.length) out.result(`  (${way.partly.join(', ')}: only some instances are taken; use terraform state rm for them)`);
  }
  if (migration.skipped.length) {
    out.result('');
    out.result(`Not taken (${migration.skipped.length}; Terraform keeps managing them, and the plan is unaffected by them):`);
    for (const s of migration.skipped) out.result(`  ${s.address}: ${s.reason}`);
  }
  return status;
}

/** The stack of the app that holds the generated constructs (by construct id and kind), if the app includes it yet. */
function stackHolding(stacks: readonly DesiredStack[], constructs: readonly GeneratedConstruct[], wanted?: string): DesiredStack | undefined {
  if (wanted) {
    const s = stacks.find((x) => x.stack === wanted);
    if (!s) throw new Error(`no stack "${wanted}" in the app (stacks: ${stacks.map((x) => x.stack).join(', ') || 'none'})`);
    return s;
  }
  const score = (s: DesiredStack) => constructs.filter((c) => s.resources[c.constructId]?.kind === c.kind).length;
  const best = [...stacks].sort((a, b) => score(b) - score(a))[0];
  return best && score(best) > 0 ? best : undefined;
}

/** Imports every construct the app now declares, as `converge import` does; those already imported are skipped. */
async function importAll(m: Migration, opts: MigrateOptions, className: string, out: Output): Promise<number> {
  if (!m.constructs.length) return 0;
  out.result('');
  if (!opts.synthDir && !findAppConfig(process.cwd())) {
    out.result(`No cdktf app here: add \`new ${className}(app, 'imported')\` to your app and run this command again in it to import the objects.`);
    return 0;
  }
  const all = loadStacks(opts);
  const desired = stackHolding(all, m.constructs, opts.stack);
  if (!desired) {
    out.result(`The app does not declare ${className} yet: add \`new ${className}(app, 'imported')\` to it and run this command again to import the objects.`);
    return 0;
  }
  // The old state's values stand for the variables not set yet, in this process only: import records an HMAC of
  // each write-only secret (as apply would), never the value; `converge plan` then needs the variables set.
  const injected: string[] = [];
  for (const c of m.constructs) {
    for (const s of c.secrets) {
      if (process.env[s.name] === undefined) { process.env[s.name] = s.oldValue; injected.push(s.name); }
    }
  }
  let failed = 0;
  let imported = 0;
  let skipped = 0;
  try {
    await withLockedState(desired.stack, 'import', tuning({}), out, async (state, clients, backend) => {
      for (const c of m.constructs) {
        const r = desired.resources[c.constructId];
        if (!r || r.kind !== c.kind) { out.warn(`${c.constructId} (${c.tfAddress}) is not in stack ${desired.stack} as ${c.kind}: not imported`); failed++; continue; }
        const rec = state.record(c.constructId);
        if (rec?.status === 'created') { skipped++; out.info(`${c.constructId}: already imported (id ${rec.id}), skipped`); continue; }
        try {
          await importObject({ desired, all, state, clients, backend, out: quietResults(out) }, c.constructId, c.importId);
          imported++;
          out.info(`Imported ${c.tfAddress} as ${c.constructId} (${c.importId})`);
        } catch (e) {
          failed++;
          out.warn(`${c.tfAddress}: not imported: ${(e as Error).message}`);
        }
      }
    });
  } finally {
    for (const n of injected) delete process.env[n];
  }
  out.result(`Imported ${imported} object(s) into stack ${desired.stack}${skipped ? `; ${skipped} already imported, skipped` : ''}`
    + `${failed ? `; ${failed} failed (above)` : ''}. With the variables set, converge plan shows no change.`);
  return failed ? 1 : 0;
}

/** The per-object lines of import, as info (the migration prints its own summary). */
function quietResults(out: Output): Output {
  return new Output({ ...out.options, quiet: true, json: true });
}
