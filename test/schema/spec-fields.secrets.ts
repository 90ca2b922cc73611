import { SpecField } from './spec-text';

/** Each secrets kind's request fields, read from the spec's parameter tables. */
export const SECRETS_SPEC_FIELDS: Record<string, () => SpecField[]> = {
};
