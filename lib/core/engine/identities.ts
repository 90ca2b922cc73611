import { DesiredResource } from '../model';
import { StateDocument } from '../state/state-model';
import { Planned } from './plan-object';
import { resourceHandler } from './registry';

/** The object a construct of a plan manages: its kind and identity (natural key or id), and its construct path. */
export interface PlannedIdentity {
  readonly kind: string;
  readonly id: string;
  readonly path: string;
}

/** Actions after which the construct manages the object under its identity. */
const MANAGING = new Set(['create', 'update', 'replace', 'adopt', 'noop', 'conflict']);

/** The identity of each resource of a plan, where it is known at plan time. */
export function identitiesOf(planned: readonly Planned[], resources: Record<string, DesiredResource>): Record<string, PlannedIdentity> {
  const out: Record<string, PlannedIdentity> = {};
  for (const p of planned) {
    const r = resources[p.item.address];
    if (!r || r.dataSource || !MANAGING.has(p.item.action)) continue;
    const natural = p.resolved && !p.resolved.hasUnknown ? resourceHandler(r.kind).naturalId(p.resolved.value) : undefined;
    const id = natural ?? (p.item.action === 'create' ? undefined : p.item.id);
    if (id) out[p.item.address] = { kind: r.kind, id, path: r.path };
  }
  return out;
}

/** Refuses two constructs of one stack with the same identity, naming both construct paths. */
export function assertOneAddress(stack: string, identities: Record<string, PlannedIdentity>): void {
  const seen = new Map<string, PlannedIdentity>();
  const problems: string[] = [];
  for (const i of Object.values(identities)) {
    const key = `${i.kind}|${i.id}`;
    const first = seen.get(key);
    if (first) problems.push(`${i.kind} ${i.id} is declared twice: ${[first.path, i.path].sort().join(' and ')}; an object is managed at one address only`);
    else seen.set(key, i);
  }
  if (problems.length) throw new Error(`plan of stack ${stack} refused:\n  ${problems.join('\n  ')}`);
}

/**
 * The objects of a plan that another stack manages already (its state, readable here) or plans to
 * manage in the same run: one line each, naming both construct paths.
 */
export function managedElsewhere(stack: string, identities: Record<string, PlannedIdentity>,
  others: readonly { stack: string; doc?: StateDocument; planned?: Record<string, PlannedIdentity> }[]): string[] {
  const owners = new Map<string, string>();
  for (const o of others) {
    if (o.stack === stack) continue;
    for (const [address, rec] of Object.entries(o.doc?.resources ?? {})) {
      if (rec.dataSource || !rec.id || rec.status !== 'created') continue;
      owners.set(`${rec.kind}|${rec.id}`, `${rec.path ?? address} (stack ${o.stack})`);
    }
    for (const i of Object.values(o.planned ?? {})) if (!owners.has(`${i.kind}|${i.id}`)) owners.set(`${i.kind}|${i.id}`, `${i.path} (stack ${o.stack})`);
  }
  const out: string[] = [];
  for (const i of Object.values(identities)) {
    const owner = owners.get(`${i.kind}|${i.id}`);
    if (owner) out.push(`${i.kind} ${i.id} is managed by ${owner} already: ${i.path} cannot manage it too`);
  }
  return out;
}
