import { setOnly } from '../../core/migrate/mapping-util';
import { TerraformMapping } from '../../core/migrate/terraform-mapping';
import { PROJECT } from '../project/project.schema';

/** `tfe_project` -> `platform.Project` (imported by its id, prj-…). */
export const TFE_PROJECT: TerraformMapping = {
  type: 'tfe_project',
  order: 1,
  map(r, ctx) {
    const v = r.values;
    return {
      kind: PROJECT.kind,
      className: 'platform.Project',
      importId: String(v.id),
      props: setOnly({ organization: ctx.organization(String(v.organization)), name: v.name, description: v.description }),
    };
  },
};
