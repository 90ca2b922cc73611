import { SpecField } from './spec-text';

/** Each secrets kind of the kv area's request fields, read from the spec's parameter tables. */
export const SECRETS_KV_SPEC_FIELDS: Record<string, () => SpecField[]> = {
};
