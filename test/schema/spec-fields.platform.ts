import { keyPathFields, SpecField, tableAfter } from './spec-text';

/** Each platform kind's request fields, read from the spec's body tables. */
export const PLATFORM_SPEC_FIELDS: Record<string, () => SpecField[]> = {
  'platform.Organization': () => keyPathFields(tableAfter('platform-api', 'Body of create and update', '### Organizations'), 'data.attributes.'),
};
