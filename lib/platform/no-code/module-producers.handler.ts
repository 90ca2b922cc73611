import { DataSourceHandler } from '../../core/engine/handler';
import { dataSourceMetadata } from '../../core/schema';
import { platformClient } from '../handler-util';
import { MODULE_PRODUCERS } from './module-producers.schema';

/** `platform.ModuleProducers`: every page of the organization's module producers. */
export const moduleProducersHandler: DataSourceHandler = {
  ...dataSourceMetadata(MODULE_PRODUCERS),
  async read(ctx, spec): Promise<Record<string, unknown>> {
    const producers: { name: string; externalId: string }[] = [];
    for await (const p of platformClient(ctx).selfHosted.iterateModuleProducers(String(spec.organization))) {
      producers.push({ name: p.name, externalId: p.externalId });
    }
    return { producers, names: producers.map((p) => p.name) };
  },
};
