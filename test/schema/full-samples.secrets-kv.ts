import { FullSample } from './full-samples';

/** A full sample of each secrets kind of the kv area. */
export const SECRETS_KV_FULL_SAMPLES: Record<string, FullSample> = {
};
