import { SpecField } from './spec-text';

/** Each secrets kind of the db area's request fields, read from the spec's parameter tables. */
export const SECRETS_DB_SPEC_FIELDS: Record<string, () => SpecField[]> = {
};
