import { SpecField } from './spec-text';

/** Each mesh kind's request fields, read from the spec's configuration entry tables. */
export const MESH_SPEC_FIELDS: Record<string, () => SpecField[]> = {
};
