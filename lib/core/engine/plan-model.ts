import { DesiredStack } from '../model';
import { FieldChange } from './handler';

/** What a plan does to one object. */
export type Action = 'create' | 'update' | 'replace' | 'delete' | 'noop' | 'adopt' | 'forget' | 'read' | 'conflict';

/** One object's line of a plan. Never holds a secret value. */
export interface PlanItem {
  readonly address: string;
  readonly kind: string;
  readonly action: Action;
  /** Identity of the existing object, when there is one. */
  readonly id?: string;
  /** Field changes from actual to desired. */
  readonly changes: FieldChange[];
  /** Changes made outside converge since the last apply (found on refresh). */
  readonly drift: FieldChange[];
  /** Why a replace or a delete happens. */
  readonly reason?: string;
  /** Loud notes: data deleted, workspaces unlinked, devices to re-enrol. */
  readonly warnings: string[];
  readonly dataSource?: boolean;
  /** A data source read that issues credentials (a leased one): apply does it and records them, so it is a change. */
  readonly issues?: boolean;
  /**
   * Attributes the plan read from the API (never a sensitive one): apply resolves references to an
   * object it does not change from these, not from the state of an earlier run.
   */
  readonly outputs?: Record<string, unknown>;
  /**
   * A data source read at plan time: an HMAC (under the state key) of everything it read. Apply uses
   * that read, or refuses the plan as stale when the data source reads something else by then.
   */
  readonly readDigest?: string;
  /** The version the plan saw (KV `current_version`, mesh ModifyIndex): apply writes against it. */
  readonly version?: number;
  /** The address whose state record this construct takes over (the construct was moved). */
  readonly movedFrom?: string;
  /** The address that took this record over (a `forget` of a moved construct). */
  readonly movedTo?: string;
  /** The kind state holds at this address when the construct's kind changed (a replace across kinds). */
  readonly priorKind?: string;
  /** Changes of what state keeps that need no API call (removal policy, dependencies, a move). */
  readonly stateChanges?: string[];
  /**
   * A data source at the address of a resource state holds (a resource that became a lookup): the
   * resource leaves the app, deleted or forgotten by its removal policy, before the read.
   */
  readonly removesPrior?: { readonly action: 'delete' | 'forget'; readonly kind: string; readonly id?: string; readonly reason: string; readonly warnings: string[] };
  /** Obsolete objects of an interrupted create-before-destroy replace, deleted by this apply. */
  readonly deposed?: string[];
}

/** The plan of one stack. */
export interface StackPlan {
  readonly stack: string;
  /** State lineage and serial the plan was made against (a saved plan is refused if they moved). */
  readonly lineage: string;
  readonly serial: number;
  readonly items: PlanItem[];
  /** Notes from plan hooks (what changes for traffic). */
  readonly notes: string[];
  /** The desired state planned for (kept in a saved plan so that apply does exactly this). */
  readonly desired: DesiredStack;
  /**
   * The states of other stacks the plan read values from (cross-stack references): lineage and serial,
   * null for a stack without state. A saved plan is refused when one of them moved since, unless the
   * same run applied that stack just before.
   */
  readonly otherStacks?: Record<string, { lineage: string; serial: number } | null>;
  /** The object each resource manages, where known at plan time (kind, identity, construct path): one object, one address. */
  readonly identities?: Record<string, { kind: string; id: string; path: string }>;
}

/** The reason of a data source that the plan could not read: it is read during the apply. */
export const READ_DURING_APPLY = 'read during apply: it depends on objects this apply creates or changes';

/** Format of `converge plan --json` and of saved plan files. */
export const PLAN_FORMAT_VERSION = 1;

export function countActions(items: readonly PlanItem[]): Record<string, number> {
  const c: Record<string, number> = { create: 0, update: 0, replace: 0, delete: 0, adopt: 0, forget: 0, noop: 0, read: 0, conflict: 0 };
  for (const i of items) {
    c[i.action] = (c[i.action] ?? 0) + 1;
    if (i.removesPrior) c[i.removesPrior.action]++;
  }
  return c;
}

/** Whether applying the plan would change anything (on the API or in state). */
export function hasChanges(plan: StackPlan): boolean {
  return plan.items.some((i) => !UNCHANGING.has(i.action) || i.issues || i.stateChanges?.length || i.deposed?.length || i.removesPrior);
}

/** Actions that change nothing by themselves (one set, not an array per item of a large plan). */
const UNCHANGING: ReadonlySet<Action> = new Set<Action>(['noop', 'read', 'conflict']);

/** Objects the plan found under a construct's identity that converge does not manage. */
export function conflictsOf(plan: StackPlan): PlanItem[] {
  return plan.items.filter((i) => i.action === 'conflict');
}
