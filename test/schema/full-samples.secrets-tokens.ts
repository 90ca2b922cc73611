import { FullSample } from './full-samples';

/** A full sample of each secrets kind of the tokens area. */
export const SECRETS_TOKENS_FULL_SAMPLES: Record<string, FullSample> = {
};
