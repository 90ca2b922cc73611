import { HttpClient } from '../http/http-client';
import { ProviderConfig } from '../model';
import { StateStore } from '../state/state-store';
import { ApiClients } from './api-clients';
import { DeclaredProviders } from './declared-providers';
import { ApiName, Spec } from './handler';
import { PlanItem, READ_DURING_APPLY, StackPlan } from './plan-model';

/**
 * One object a plan will write, as a preflight check sees it: its kind, the spec `converge policy`
 * reads (the app's desired spec, or the spec state recorded for an object being deleted) and whether
 * the write deletes (a delete or a replace). Objects the plan only read need no check: their read succeeded.
 */
export interface PreflightItem {
  /** The construct path (`prod/db`), for messages. */
  readonly address: string;
  readonly kind: string;
  readonly spec: Spec;
  readonly deletes: boolean;
  /** The plan's action for it (create, update, replace, adopt, delete, read). */
  readonly action: string;
}

/** What a domain's check found for the objects of one provider (one token). */
export interface PreflightFinding {
  /** Each capability the token lacks, naming it and where (`update on "kvc/metadata/app/db"`). */
  readonly missing: string[];
  /** Set when the server could not answer what the token may do: why, and how to let it. */
  readonly couldNotCheck?: string;
}

/**
 * A domain's preflight: asks its server, in as few requests as the API allows (one per API and mount
 * or organization), whether the token may do what the plan will do. The capabilities it asks for are
 * what the kinds' handlers declare (`permissions`), which `converge policy` prints too, so that the two cannot disagree.
 */
export type PreflightCheck = (input: {
  items: readonly PreflightItem[];
  http: HttpClient;
  /** The stack's desired resources by address: what a reference in an item's spec points at. */
  resources?: Readonly<Record<string, { kind: string; spec: Spec }>>;
}) => Promise<PreflightFinding>;

const checks = new Map<ApiName, PreflightCheck>();

/** Registers an API's preflight check (each domain does so through its `DomainKinds`). */
export function registerPreflight(api: ApiName, check: PreflightCheck): void {
  checks.set(api, check);
}

/** Actions that write nothing, so need no check (a conflict fails the plan anyway). */
const READ_ONLY = new Set(['noop', 'read', 'conflict', 'forget']);

/** What the preflight found for a plan: the capabilities missing, and the APIs it could not check. */
export interface PreflightReport {
  readonly missing: string[];
  readonly unchecked: string[];
}

/**
 * Before anything is written: asks each API whose objects the plan changes what its token may do.
 * Missing capabilities are returned together (the caller fails with all of them, nothing written);
 * an API whose server cannot answer is returned as unchecked, which is no error.
 */
export async function preflight(plan: StackPlan, state: StateStore, clients: ApiClients): Promise<PreflightReport> {
  const declared = new DeclaredProviders(plan.desired);
  const groups = new Map<HttpClient, { api: ApiName; where: string; items: PreflightItem[] }>();
  const add = (provider: ProviderConfig | undefined, item: PreflightItem) => {
    if (!provider || !checks.has(provider.api)) return;
    const http = clients.for(provider);
    const g = groups.get(http) ?? { api: provider.api, where: provider.address ?? provider.addressEnv, items: [] };
    g.items.push(item);
    groups.set(http, g);
  };
  for (const i of plan.items) {
    const desired = plan.desired.resources[i.address];
    const rec = state.record(i.address);
    const address = desired?.path ?? rec?.path ?? i.address;
    // A resource that became a lookup: the resource is deleted first.
    if (i.removesPrior?.action === 'delete' && rec) {
      add(declared.resolve(rec.provider), { address, kind: i.removesPrior.kind, spec: rec.spec, deletes: true, action: 'delete' });
    }
    if (!writes(i)) continue;
    const deletes = i.action === 'delete' || i.action === 'replace';
    // The object leaves (deleted, or replaced by another kind): what state recorded is deleted.
    if (rec && (i.action === 'delete' || i.priorKind)) {
      add(desired?.provider ?? declared.resolve(rec.provider), { address, kind: i.priorKind ?? rec.kind, spec: rec.spec, deletes: true, action: 'delete' });
    }
    if (desired && i.action !== 'delete') add(desired.provider, { address, kind: i.kind, spec: desired.spec, deletes, action: i.priorKind ? 'create' : i.action });
  }
  const missing: string[] = [];
  const unchecked: string[] = [];
  for (const [http, g] of groups) {
    const found = await checks.get(g.api)!({ items: g.items, http, resources: plan.desired.resources });
    missing.push(...found.missing);
    if (found.couldNotCheck) unchecked.push(`the ${g.api} API (${g.where}): ${found.couldNotCheck}`);
  }
  return { missing, unchecked };
}

/** Whether the apply sends anything for the item: a change, or a data source read (or released) during the apply. */
function writes(i: PlanItem): boolean {
  if (i.dataSource) return Boolean(i.issues) || i.action === 'delete' || i.reason === READ_DURING_APPLY;
  return !READ_ONLY.has(i.action);
}
