export * from './core';
export * as platform from './platform';
export * as secrets from './secrets';
export * as mesh from './mesh';

import { registerAllKinds } from './kinds';
// The Terraform bridge masks, in its per-object triggers, the fields each kind's schema marks sensitive.
registerAllKinds();
