import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { VALIDATION_REPORT_VARIABLE } from '../../core/constructs/validation';
import { newSynthSealKey } from '../../core/crypto/synth-seal';
import { findAppConfig, readSynthInput, runApp } from '../../core/synth/read-synth';
import { condenseAppFailure } from '../app-failure';
import { Output } from '../output';
import { AppOptions } from '../workspace';

/** One invalid prop, as the app's constructs record it under `converge validate`. */
interface Reported {
  readonly path: string;
  readonly field: string;
  readonly rule: string;
}

/**
 * `converge validate`: runs the app with its constructs recording each invalid prop instead of
 * throwing at the first (VALIDATION_REPORT_VARIABLE, in the JS runtime of any jsii language), then
 * checks the synthesized output as plan would, and prints every error at once. It contacts no API,
 * reads no state and takes no lock; the synthesized output goes to a temporary directory.
 */
export async function validateCommand(opts: AppOptions, out: Output): Promise<number> {
  if (opts.synthDir) return valid(readSynthInput(path.resolve(opts.synthDir)).length, out);
  const cfg = findAppConfig(process.cwd());
  if (!cfg) throw new Error('no cdktf.json here or above: run converge validate in a cdktf app, or pass --synth-dir');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'converge-validate-'));
  const report = path.join(work, 'errors.jsonl');
  // Given to the app through the synthesis environment's named variables, as --synth-env names one.
  process.env[VALIDATION_REPORT_VARIABLE] = report;
  let failure: Error | undefined;
  let stacks = 0;
  try {
    stacks = readSynthInput(runApp(cfg, path.join(work, 'out'), newSynthSealKey(), [...(opts.synthEnv ?? []), VALIDATION_REPORT_VARIABLE])).length;
  } catch (e) {
    failure = e as Error;
  } finally {
    delete process.env[VALIDATION_REPORT_VARIABLE];
  }
  const errors = readReport(report);
  fs.rmSync(work, { recursive: true, force: true });
  if (!errors.length) {
    if (failure) throw failure;
    return valid(stacks, out);
  }
  for (const e of errors) out.error(`${e.path}: ${e.field} ${e.rule}`);
  // The synthesis fails on the recorded errors themselves (cdktf's validations); anything else stopped the app early.
  const condensed = failure ? condenseAppFailure(failure.message) : '';
  // cdktf's two messages (stack and app validations) both end with the skipValidation advice.
  const other = failure && !/validation failed|skipValidation/i.test(failure.message) && !errors.some((e) => condensed.includes(`${e.path}: ${e.field}`));
  if (other) out.error(`the app stopped after these errors, so later constructs were not checked: ${condensed}`);
  out.warn(`${errors.length} error${errors.length === 1 ? '' : 's'} found; no API was contacted.`);
  return 1;
}

function valid(stacks: number, out: Output): number {
  out.result(`The app is valid (${stacks} stack${stacks === 1 ? '' : 's'}); no API was contacted.`);
  return 0;
}

/** The recorded errors in the order they were found, each once (a construct may check a prop twice). */
function readReport(file: string): Reported[] {
  if (!fs.existsSync(file)) return [];
  const seen = new Set<string>();
  const all: Reported[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as Reported;
    const key = `${r.path}\0${r.field}\0${r.rule}`;
    if (seen.has(key)) continue;
    seen.add(key);
    all.push(r);
  }
  return all;
}
