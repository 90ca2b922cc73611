import { setOnly } from '../../core/migrate/mapping-util';
import { TerraformMapping } from '../../core/migrate/terraform-mapping';
import { AGENT_POOL } from '../agent-pool/agent-pool.schema';

/** `tfe_agent_pool` -> `platform.AgentPool` (imported by its id, apool-…). */
export const TFE_AGENT_POOL: TerraformMapping = {
  type: 'tfe_agent_pool',
  map(r, ctx) {
    const v = r.values;
    return {
      kind: AGENT_POOL.kind,
      className: 'platform.AgentPool',
      importId: String(v.id),
      props: setOnly({ organization: ctx.organization(String(v.organization)), name: v.name, organizationScoped: v.organization_scoped }),
    };
  },
};
