import { PlanHook, PlanHookItem } from '../../core/engine/registry';

/** The subsets of services an entry's spec uses, as `namespace/service/subset` (a split's, a route destination's, a redirect's, a failover target's). */
function subsetsUsed(spec: Record<string, unknown> | undefined): Set<string> {
  const out = new Set<string>();
  if (!spec) return out;
  const self = String(spec.name);
  const namespace = String(spec.namespace ?? 'default');
  const walk = (v: unknown, top: boolean): void => {
    if (Array.isArray(v)) { v.forEach((x) => walk(x, false)); return; }
    if (v === null || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    if (!top && typeof o.serviceSubset === 'string' && o.serviceSubset) {
      out.add(`${(o.namespace as string) || namespace}/${(o.service as string) || self}/${o.serviceSubset}`);
    }
    for (const [k, x] of Object.entries(o)) if (!(top && k === 'meta')) walk(x, false);
  };
  walk(spec, true);
  return out;
}

const subsetNames = (spec: Record<string, unknown> | undefined) =>
  new Set(Object.keys((spec?.subsets as Record<string, unknown> | undefined) ?? {}));

/**
 * A subset renamed in one apply (a resolver drops one subset and adds another while the splitters and
 * routers that use the old one move to the new one) has no order of writes that works: the resolver
 * first breaks the entries that still use the old subset, they first name a subset that does not exist
 * yet. The plan refuses it and names the two steps that work.
 */
export function subsetRenames(items: readonly PlanHookItem[]): string[] {
  const errors: string[] = [];
  for (const r of items) {
    if (r.kind !== 'mesh.ServiceResolver' || r.action !== 'update' || !r.before || !r.after) continue;
    const before = subsetNames(r.before);
    const after = subsetNames(r.after);
    const removed = [...before].filter((s) => !after.has(s)).sort();
    const added = [...after].filter((s) => !before.has(s)).sort();
    if (!removed.length || !added.length) continue;
    const prefix = `${String(r.after.namespace ?? 'default')}/${String(r.after.name)}/`;
    const users = items.filter((i) => {
      if (i === r || !i.before || !i.after || ['delete', 'forget'].includes(i.action)) return false;
      const was = subsetsUsed(i.before);
      const will = subsetsUsed(i.after);
      return removed.some((s) => was.has(prefix + s)) && added.some((s) => will.has(prefix + s));
    }).map((i) => i.address).sort();
    if (!users.length) continue;
    errors.push(`${r.address} removes subset ${removed.join(', ')} of service ${String(r.after.name)}, which ${users.join(' and ')} use now, ` +
      `and adds ${added.join(', ')}, which they will use: no order of writes works in one apply. Apply it in two steps: first the resolver ` +
      `with both subsets (${[...new Set([...before, ...after])].sort().join(', ')}) and the entries that use ${added.join(', ')}, then the resolver without ${removed.join(', ')}`);
  }
  return errors;
}

/** The plan hook: refuses subset renames that cannot be applied in one step. */
export const subsetRenameHook: PlanHook = async ({ items }) => ({ notes: [], errors: subsetRenames(items) });
