import { isDeepStrictEqual } from 'util';
import { ApiClients } from '../../lib/core/engine/api-clients';
import { registeredKinds, resourceHandler } from '../../lib/core/engine/registry';
import { isAttrRef, isSecretRef } from '../../lib/core/model';
import { FieldSchema } from '../../lib/core/schema';
import { readSynthDir } from '../../lib/core/synth/read-synth';
import { registerAllKinds } from '../../lib/kinds';
import { cliAsync, startWorld, synthApp, TestWorld } from '../support/harness';
import { startPostgres, TestPostgres } from '../support/postgres';
import { samplesOf } from '../support/samples';
import { FullSample, SampleWorld } from './full-samples';

registerAllKinds();

/** Every kind's `full` sample, from the families' samples files (test/support/samples.ts). */
const SAMPLES: Record<string, FullSample> = samplesOf('full');
const late = (v: unknown): boolean => JSON.stringify(v ?? null).includes('"$secret"') || JSON.stringify(v ?? null).includes('"$ref"') || isAttrRef(v) || isSecretRef(v);

// Every kind, each field of its schema set: applied through the real CLI against the emulator, then
// read back by the kind's handler. A field the handler does not send comes back different; a field it
// does not read is missing; either fails here. The plan after the apply is a no-op.
describe('every kind: a full object round-trips through the emulator', () => {
  /** One world, its samples applied through the CLI, then planned again. */
  interface Run {
    world: TestWorld;
    states: Map<string, string>;
    desired: Record<string, { spec: Record<string, unknown>; provider: any }>;
    plan: { status: number | null; stdout: string; stderr: string };
    apply: { status: number | null; stdout: string; stderr: string };
  }
  let pg: TestPostgres | undefined;
  const runs: Run[] = [];
  const runOf = (kind: string): Run => runs[SAMPLES[kind].selfHosted ? 1 : 0];

  async function roundTrip(samples: FullSample[], options: Parameters<typeof startWorld>[0], name: string): Promise<Run> {
    const world = await startWorld(options, Object.assign({}, ...samples.map((s) => s.env ?? {})));
    const sampleWorld: SampleWorld = { env: { ...world.emulator.env }, postgresUrl: pg?.url };
    for (const s of samples) await s.seed?.(sampleWorld);
    const dir = synthApp((stack) => samples.forEach((s) => s.build(stack, sampleWorld)), name);
    const desired = readSynthDir(dir)[0].resources as any;
    const apply = await cliAsync(['apply', '--synth-dir', dir, '--auto-approve'], world.env);
    const list = await cliAsync(['state', 'list'], world.env);
    const states = new Map(list.stdout.trim().split('\n').map((l) => l.split('\t')).map(([a, , id]) => [a, id] as [string, string]));
    const plan = await cliAsync(['plan', '--synth-dir', dir, '--detailed-exitcode'], world.env);
    return { world, states, desired, plan, apply };
  }

  beforeAll(async () => {
    if (Object.values(SAMPLES).some((s) => s.needsPostgres)) pg = await startPostgres();
    runs.push(await roundTrip(Object.values(SAMPLES).filter((s) => !s.selfHosted), {}, 'full'));
    // The self-hosted edition's own objects (a data retention policy), in a world of that edition.
    runs.push(await roundTrip(Object.values(SAMPLES).filter((s) => s.selfHosted), { platformEdition: 'self-hosted' }, 'full-self-hosted'));
  });
  afterAll(async () => { for (const r of runs) await r.world.stop(); await pg?.stop(); });

  test.each(['hosted', 'self-hosted'])('%s: the apply succeeds and the plan after it is a no-op', (edition) => {
    const { apply, plan } = runs[edition === 'hosted' ? 0 : 1];
    expect(apply.stderr).toBe('');
    expect(apply.status).toBe(0);
    expect(plan.stdout).toMatch(/No changes/);
    expect(plan.status).toBe(0);
  });

  test.each(registeredKinds().resources)('%s has a full sample', (kind) => {
    expect(Object.keys(SAMPLES)).toContain(kind);
  });

  test.each(Object.keys(SAMPLES))('%s: the sample sets every field, and every field reads back as sent', async (kind) => {
    const sample = SAMPLES[kind];
    const handler = resourceHandler(kind);
    const schema = handler.schema!;
    const { desired, states, world } = runOf(kind);
    const r = desired[sample.address];
    expect(r).toBeDefined();
    for (const [key, field] of Object.entries(schema.fields)) {
      if (sample.defaultsKept?.[key]) continue;
      const def = typeof field.default === 'function' ? undefined : field.default;
      expect({ kind, field: key, setToNonDefault: r.spec[key] !== undefined && !isDeepStrictEqual(r.spec[key], def) })
        .toEqual({ kind, field: key, setToNonDefault: true });
    }
    const clients = new ApiClients({}, world.env);
    try {
      const observed = await handler.read({ address: sample.address, http: clients.for(r.provider) }, states.get(sample.address)!);
      expect(observed).toBeDefined();
      const readable = Object.entries(schema.fields).filter(([, f]: [string, FieldSchema]) => !f.writeOnly && !f.local).map(([k]) => k);
      expect({ kind, notRead: readable.filter((k) => !(k in observed!.fields)) }).toEqual({ kind, notRead: [] });
      for (const k of readable) {
        if (late(r.spec[k]) || r.spec[k] === undefined) continue;
        expect({ kind, field: k, value: observed!.fields[k] }).toEqual({ kind, field: k, value: r.spec[k] });
      }
    } finally {
      await clients.close?.();
    }
  });
});
