import { FullSample } from './full-samples';

/** A full sample of each secrets kind of the db area. */
export const SECRETS_DB_FULL_SAMPLES: Record<string, FullSample> = {
};
