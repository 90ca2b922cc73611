import { FullSample } from './full-samples';

/** A full sample of each mesh kind. */
export const MESH_FULL_SAMPLES: Record<string, FullSample> = {
};
