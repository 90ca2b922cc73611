import { PlanHook } from '../core/engine/registry';

/** Placeholder until the traffic diff lands (next commit). */
export const trafficDiffHook: PlanHook = async () => ({ notes: [], errors: [] });
