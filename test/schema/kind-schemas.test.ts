import { dataSourceHandler, registeredKinds, resourceHandler } from '../../lib/core/engine/registry';
import { wireName } from '../../lib/core/schema';
import { registerAllKinds } from '../../lib/kinds';
import { samplesOf } from '../support/samples';

registerAllKinds();

/** Every kind's `specFields`, from the families' samples files (test/support/samples.ts). */
const SPEC_FIELDS = samplesOf('specFields');
const { resources, dataSources } = registeredKinds();

// Every kind runs on its one declaration of fields, and that declaration lists exactly the fields of
// the spec's request body: a field missing on either side fails here (not silently at apply, where a
// field never read is never compared).
describe('every kind runs on its schema', () => {
  test.each(resources)('%s: the handler carries the schema of its kind', (kind) => {
    const h = resourceHandler(kind);
    expect(h.schema?.kind).toBe(kind);
    expect(h.api).toBe(h.schema?.api);
  });

  test.each(dataSources)('%s: the data source carries the schema of its kind', (kind) => {
    expect(dataSourceHandler(kind).schema?.kind).toBe(kind);
  });

  test.each(resources)('%s: the spec names the body table walked', (kind) => {
    expect(Object.keys(SPEC_FIELDS)).toContain(kind);
  });

  test.each(resources.filter((k) => k in SPEC_FIELDS))('%s: schema and spec list the same fields, with the same defaults', (kind) => {
    const schema = resourceHandler(kind).schema!;
    const spec = SPEC_FIELDS[kind]();
    const wire = new Map(Object.entries(schema.fields).filter(([, f]) => !f.local).map(([k, f]) => [wireName(schema, k, f), f]));
    const unmanaged = Object.keys(schema.unmanaged ?? {});
    expect({ kind, inSpecNotInSchema: spec.map((f) => f.name).filter((n) => !wire.has(n) && !unmanaged.includes(n)) })
      .toEqual({ kind, inSpecNotInSchema: [] });
    expect({ kind, inSchemaNotInSpec: [...wire.keys()].filter((n) => !spec.some((f) => f.name === n)) })
      .toEqual({ kind, inSchemaNotInSpec: [] });
    expect({ kind, unmanagedButManaged: unmanaged.filter((n) => wire.has(n)) }).toEqual({ kind, unmanagedButManaged: [] });
    for (const f of spec) {
      const field = wire.get(f.name);
      if (!field || f.default === undefined || field.default === undefined || typeof field.default === 'function') continue;
      expect({ kind, field: f.name, default: field.default }).toEqual({ kind, field: f.name, default: f.default });
    }
  });
});
