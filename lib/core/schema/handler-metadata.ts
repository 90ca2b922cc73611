import { KindSchema, replaceFieldsOf, sensitiveFieldsOf, sensitiveOutputsOf } from './kind-schema';

/** What a resource handler takes from its kind's schema: the kind's name, API and diff metadata. */
export function resourceMetadata(schema: KindSchema) {
  return {
    schema,
    kind: schema.kind,
    api: schema.api,
    replaceFields: replaceFieldsOf(schema),
    sensitiveFields: sensitiveFieldsOf(schema),
  };
}

/** What a data source handler takes from its kind's schema. */
export function dataSourceMetadata(schema: KindSchema) {
  return { schema, kind: schema.kind, api: schema.api, sensitiveOutputs: sensitiveOutputsOf(schema) };
}
