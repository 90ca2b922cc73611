import { TfResource } from '../../core/migrate/terraform-mapping';

/** A shell word: single-quoted (addresses hold `"` and `[`). */
const quoted = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * How Terraform forgets what converge took, without destroying it: `terraform state rm` per instance,
 * and (Terraform 1.7 and later) one `removed` block per resource whose instances were all taken.
 */
export function wayOut(all: readonly TfResource[], taken: ReadonlySet<string>): { stateRm: string[]; removedBlocks: string[]; partly: string[] } {
  const byResource = new Map<string, TfResource[]>();
  for (const r of all) {
    if (r.mode !== 'managed') continue;
    const key = `${r.module ? `${r.module}.` : ''}${r.type}.${r.name}`;
    byResource.set(key, [...(byResource.get(key) ?? []), r]);
  }
  const stateRm: string[] = [];
  const removedBlocks: string[] = [];
  const partly: string[] = [];
  for (const [resource, instances] of byResource) {
    const mine = instances.filter((i) => taken.has(i.address));
    if (!mine.length) continue;
    stateRm.push(...mine.map((i) => `terraform state rm ${quoted(i.address)}`));
    // A removed block names a whole resource (no instance key, no module instance key).
    if (mine.length === instances.length && !/\[/.test(resource)) {
      removedBlocks.push(`removed {\n  from = ${resource}\n\n  lifecycle {\n    destroy = false\n  }\n}`);
    } else {
      partly.push(resource);
    }
  }
  return { stateRm, removedBlocks, partly };
}
