import { TfResource } from '../../core/migrate/terraform-mapping';

interface RawInstance { index_key?: string | number; attributes?: Record<string, unknown> }
interface RawResource { module?: string; mode: 'managed' | 'data'; type: string; name: string; provider: string; instances: RawInstance[] }
interface ShowResource { address: string; mode: 'managed' | 'data'; type: string; name: string; index?: string | number; provider_name: string; values: Record<string, unknown> }
interface ShowModule { resources?: ShowResource[]; child_modules?: (ShowModule & { address?: string })[]; address?: string }

/** `["a"]` / `[0]`: how Terraform writes an instance key in an address. */
function keySuffix(k: string | number | undefined): string {
  return k === undefined ? '' : typeof k === 'number' ? `[${k}]` : `[${JSON.stringify(k)}]`;
}

/**
 * The resource instances of a Terraform state, from a state file (format 4, as `terraform state pull`
 * prints it) or from `terraform show -json` (its `values.root_module` and child modules).
 */
export function readTerraformState(text: string, source: string): TfResource[] {
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new Error(`${source} is not JSON: give a state file (terraform state pull) or terraform show -json output`);
  }
  if (doc.version === 4 && Array.isArray(doc.resources)) {
    return (doc.resources as RawResource[]).flatMap((r) => r.instances.map((i) => {
      const module = r.module ?? '';
      const local = `${r.mode === 'data' ? 'data.' : ''}${r.type}.${r.name}${keySuffix(i.index_key)}`;
      return { address: module ? `${module}.${local}` : local, mode: r.mode, type: r.type, name: r.name, indexKey: i.index_key,
        provider: r.provider.replace(/^provider\["(.*)"\].*$/, '$1'), values: i.attributes ?? {}, module };
    }));
  }
  if (typeof doc.format_version === 'string') {
    const values = doc.values as { root_module?: ShowModule } | undefined;
    const out: TfResource[] = [];
    const walk = (m: ShowModule | undefined) => {
      if (!m) return;
      for (const r of m.resources ?? []) {
        out.push({ address: r.address, mode: r.mode, type: r.type, name: r.name, indexKey: r.index, provider: r.provider_name,
          values: r.values ?? {}, module: m.address ?? '' });
      }
      (m.child_modules ?? []).forEach(walk);
    };
    walk(values?.root_module);
    return out;
  }
  if (doc.version !== undefined) throw new Error(`${source} is a Terraform state of format ${doc.version}: converge reads format 4 (Terraform 0.12 and later)`);
  throw new Error(`${source} is neither a Terraform state (format 4) nor terraform show -json output`);
}
