import { DomainMigrations } from '../../core/migrate/terraform-mapping';
import { TFE_AGENT_POOL } from './tfe-agent-pool';
import { TFE_NO_CODE_MODULE } from './tfe-no-code-module';
import { TFE_OAUTH_CLIENT } from './tfe-oauth-client';
import { TFE_ORGANIZATION } from './tfe-organization';
import { TFE_PROJECT } from './tfe-project';
import { TFE_TEAM } from './tfe-team';
import { TFE_TEAM_ACCESS } from './tfe-team-access';
import { TFE_VARIABLE } from './tfe-variable';
import { TFE_VARIABLE_SET } from './tfe-variable-set';
import { TFE_WORKSPACE } from './tfe-workspace';

/** The tfe provider's resource types that `converge migrate terraform` takes (one file per type; a new kind adds its own). */
export const PLATFORM_MIGRATIONS: DomainMigrations = [
  TFE_ORGANIZATION, TFE_OAUTH_CLIENT, TFE_AGENT_POOL, TFE_NO_CODE_MODULE, TFE_PROJECT, TFE_WORKSPACE, TFE_TEAM, TFE_TEAM_ACCESS, TFE_VARIABLE_SET, TFE_VARIABLE,
];
