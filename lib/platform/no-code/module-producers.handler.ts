import { dataSourceMetadata } from '../../core/schema';
import { platformClient } from '../shared/handler-util';
import { MODULE_PRODUCERS } from './module-producers.schema';
import { PlatformDataSourceHandler } from '../shared/kind-permissions';

/** `platform.ModuleProducers`: every page of the organization's module producers. */
export const moduleProducersHandler: PlatformDataSourceHandler = {
  ...dataSourceMetadata(MODULE_PRODUCERS),
  permissions: {
    needs: (s) => `read organization "${String(s.organization)}" (self-hosted edition)`,
  },
  async read(ctx, spec): Promise<Record<string, unknown>> {
    const producers: { name: string; externalId: string }[] = [];
    for await (const p of platformClient(ctx).selfHosted.iterateModuleProducers(String(spec.organization))) {
      producers.push({ name: p.name, externalId: p.externalId });
    }
    return { producers, names: producers.map((p) => p.name) };
  },
};
