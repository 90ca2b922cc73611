import * as fs from 'fs';
import * as path from 'path';
import type { KindProps } from '../reliability/prop-arbitraries';
import type { FullSample } from '../schema/full-samples';
import type { KindSample } from './sample-world';
import type { SpecField } from './spec-tables';

/**
 * What the coverage tests need of one kind, kept beside the kind's tests. Each part is checked by
 * the test named: a registered kind without the part fails there.
 */
export interface KindSamples {
  /** Objects of the kind in a mixed stack (test/e2e/torture, refresh-after-apply, request-budget); resources only. */
  readonly sample?: KindSample;
  /** One object with every schema field set (test/schema/round-trip.e2e); resources only. */
  readonly full?: FullSample;
  /** The request body fields the spec lists (test/schema/kind-schemas); resources only. */
  readonly specFields?: () => SpecField[];
  /** Valid and invalid props (test/reliability/construct-props, secret-hygiene-all-kinds); every kind, data sources included. */
  readonly props?: KindProps;
}

/**
 * The export of every `test/<domain>/<family>/<family>.samples.ts`:
 *
 * ```ts
 * export const SAMPLES: FamilySamples = {
 *   'secrets.KvSecret': { sample: {...}, full: {...}, specFields: () => [...], props: {...} },
 * };
 * ```
 *
 * Keys are kinds (`<domain>.<ConstructName>`), each in one family's file only. Adding a kind means
 * adding its entry there (`npm run new-kind` writes a skeleton); no central table lists kinds.
 * A samples file imports lib through `lib/index.ts` or `lib/<domain>/index.ts` only, and must not
 * import the modules that collect (this one's `allSamples`, kind-samples.ts, kind-props.ts).
 */
export type FamilySamples = Readonly<Record<string, KindSamples>>;

const TEST_ROOT = path.join(__dirname, '..');
/** The domains whose families hold samples files (`test/<domain>/<family>/<family>.samples.ts`). */
const DOMAINS = ['platform', 'secrets', 'mesh'];

/** The samples files found, sorted: `test/<domain>/<family>/<family>.samples.ts`. */
export function samplesFiles(root = TEST_ROOT): string[] {
  const out: string[] = [];
  for (const domain of DOMAINS) {
    const dir = path.join(root, domain);
    if (!fs.existsSync(dir)) continue;
    for (const family of fs.readdirSync(dir).sort()) {
      const file = path.join(dir, family, `${family}.samples.ts`);
      if (fs.existsSync(file)) out.push(file);
    }
  }
  return out;
}

let collected: Map<string, KindSamples> | undefined;

/** Every kind's samples, from every samples file; a kind in two files, or a file without `SAMPLES`, is an error. */
export function allSamples(): ReadonlyMap<string, KindSamples> {
  if (collected) return collected;
  const out = new Map<string, KindSamples>();
  const from = new Map<string, string>();
  for (const file of samplesFiles()) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const samples = (require(file) as { SAMPLES?: FamilySamples }).SAMPLES;
    const rel = path.relative(TEST_ROOT, file);
    if (!samples) throw new Error(`test/${rel} exports no SAMPLES (see test/support/samples.ts)`);
    for (const [kind, s] of Object.entries(samples)) {
      if (from.has(kind)) throw new Error(`${kind} has samples in test/${from.get(kind)} and test/${rel}`);
      from.set(kind, rel);
      out.set(kind, s);
    }
  }
  collected = out;
  return out;
}

/** One part of every kind's samples, by kind (the kinds that have it). */
export function samplesOf<P extends keyof KindSamples>(part: P): Record<string, NonNullable<KindSamples[P]>> {
  const out: Record<string, NonNullable<KindSamples[P]>> = {};
  for (const [kind, s] of allSamples()) if (s[part] !== undefined) out[kind] = s[part]!;
  return out;
}
