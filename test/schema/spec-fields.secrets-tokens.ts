import { SpecField } from './spec-text';

/** Each secrets kind of the tokens area's request fields, read from the spec's parameter tables. */
export const SECRETS_TOKENS_SPEC_FIELDS: Record<string, () => SpecField[]> = {
};
