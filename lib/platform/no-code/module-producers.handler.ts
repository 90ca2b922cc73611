import { DataSourceHandler } from '../../core/engine/handler';
import { platformClient } from '../handler-util';

/** `platform.ModuleProducers`: every page of the organization's module producers. */
export const moduleProducersHandler: DataSourceHandler = {
  kind: 'platform.ModuleProducers',
  api: 'platform',
  async read(ctx, spec): Promise<Record<string, unknown>> {
    const producers: { name: string; externalId: string }[] = [];
    for await (const p of platformClient(ctx).selfHosted.iterateModuleProducers(String(spec.organization))) {
      producers.push({ name: p.name, externalId: p.externalId });
    }
    return { producers, names: producers.map((p) => p.name) };
  },
};
