import { FullSample } from './full-samples';

/** A full sample of each secrets kind. */
export const SECRETS_FULL_SAMPLES: Record<string, FullSample> = {
};
