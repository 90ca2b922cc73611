import * as crypto from 'crypto';
import { ApiClients } from '../../core/engine/api-clients';
import { OtherStacks } from '../../core/engine/other-stacks';
import { PlanMemo } from '../../core/engine/plan-memo';
import { hasChanges, PlanItem, StackPlan } from '../../core/engine/plan-model';
import { applyReconciled, planReconciled, ReconcileContext, unchangedSinceLastApply } from '../../core/engine/reconcile';
import { DesiredStack } from '../../core/model';
import { VerifiedRecords } from '../../core/state/record-seal';
import { LockedError, StateBackend } from '../../core/state/state-model';
import { StateStore } from '../../core/state/state-store';
import { Output } from '../output';
import { changeJson, classifyPlan, describeChange, driftKey } from './drift';
import { MeshWatch } from './mesh-watch';
import { WatchMetrics } from './metrics';
import { StackLeases } from './replica-leases';
import { WatchEvent, WatchReporter } from './reporter';
import { meshScope } from './scoped-plan';

/** How `converge watch` runs (its flags). */
export interface WatchSettings {
  /** Milliseconds between two whole plans of a stack. */
  readonly intervalMs: number;
  /** `report` drift, or `revert` it (write back what the app declares, only for the drifted objects). */
  readonly onDrift: 'report' | 'revert';
  /** Apply changes of the app itself too (else they are reported: "app changed: run apply"). */
  readonly applyAppChanges: boolean;
  readonly parallelism: number;
  /** Seconds a mesh blocking query waits for a change before it asks again. */
  readonly meshWaitS: number;
}

/** What one watched stack carries from cycle to cycle. */
interface StackWatch {
  desired: DesiredStack;
  /** Drift already reported, by address: reported again only when it changes. */
  readonly reported: Map<string, { key: string; kind: string }>;
  /** Kinds whose drift gauge this stack has set (to zero them when their drift is gone). */
  readonly gaugeKinds: Set<string>;
  /** What the last app-change or renewal report said, so that the same is not repeated every cycle. */
  appReported?: string;
  renewalReported?: string;
  upstreamReported?: string;
  running?: Promise<void>;
  /** A cycle asked for while one runs: run once more after it (a whole plan wins over a mesh one). */
  again?: 'full' | 'mesh';
  timer?: NodeJS.Timeout;
  cycled: boolean;
  /**
   * What the last plans found, by object: an object whose declaration, state record and API answer
   * are as they were is not diffed again. Forgotten when the app, the state or the API is changed by
   * anyone (a new synth, an apply, this watcher's own writes).
   */
  readonly memo: PlanMemo;
  /** The state (lineage and serial) the memo was filled against. */
  memoState?: string;
  /** The state records verified so far, as read: a record read again unchanged is not verified again. */
  readonly verified: VerifiedRecords;
}

/**
 * The long-running reconciler: a whole plan of each held stack every interval, a plan of its mesh
 * part as soon as a blocking query sees an entry change, each under the stack's lock (a stack an
 * apply holds is skipped for that cycle, and said so). Planning and writing go through apply's own
 * reconcile path (lib/core/engine/reconcile: other stacks' reads, identity checks, the plan restricted
 * to chosen addresses); the watcher only chooses the addresses, by the rule of docs/watch.md: drift,
 * renewals and upstream changes of objects the app did not change (a plan from state finds nothing
 * to do for them nor for what they read). A change of the app is reported, applied only with `applyAppChanges`.
 */
export class Watcher {
  private readonly stacks = new Map<string, StackWatch>();
  private stopping = false;
  private meshWatch?: MeshWatch;

  constructor(private readonly all: () => DesiredStack[], watched: readonly DesiredStack[], private readonly settings: WatchSettings,
    private readonly backend: StateBackend, private readonly clients: ApiClients, private readonly meshClients: ApiClients,
    private readonly leases: StackLeases, private readonly metrics: WatchMetrics, private readonly reporter: WatchReporter, private readonly out: Output) {
    for (const d of watched) this.stacks.set(d.stack, { desired: d, reported: new Map(), gaugeKinds: new Set(), cycled: false, memo: new PlanMemo(), verified: new VerifiedRecords() });
  }

  /** Whether every stack this replica holds has finished a cycle (`/readyz`). */
  public ready(): boolean {
    return [...this.stacks.entries()].every(([name, w]) => !this.leases.holds(name) || w.cycled);
  }

  public async start(): Promise<void> {
    this.meshWatch = new MeshWatch(this.meshClients, [...this.stacks.values()].map((w) => w.desired), this.settings.meshWaitS,
      (stack) => this.trigger(stack, 'mesh'), (m) => this.emit({ event: 'error', message: `mesh watch: ${m}` }));
    await this.leases.start([...this.stacks.keys()], (gained, lost) => {
      this.metrics.held.set([...this.stacks.keys()].filter((s) => this.leases.holds(s)).length);
      for (const s of gained) {
        this.emit({ event: 'lease-gained', stack: s, replica: this.leases.me, message: `watching stack ${s} (replica ${this.leases.me})` });
        this.trigger(s, 'full');
      }
      for (const s of lost) this.emit({ event: 'lease-lost', stack: s, replica: this.leases.me, message: `no longer watching stack ${s}: another replica holds it` });
    });
    this.meshWatch.start();
  }

  /** Stops starting cycles, lets those in flight finish, and gives the leases back. */
  public async stop(): Promise<void> {
    this.stopping = true;
    this.meshWatch?.stop();
    for (const w of this.stacks.values()) if (w.timer) clearTimeout(w.timer);
    await Promise.all([...this.stacks.values()].map((w) => w.running));
    await this.leases.stop();
  }

  /** Asks for a cycle of the stack: now, or right after the one running. */
  public trigger(stack: string, scope: 'full' | 'mesh'): void {
    const w = this.stacks.get(stack);
    if (!w || this.stopping) return;
    if (w.running) {
      w.again = w.again === 'full' || scope === 'full' ? 'full' : 'mesh';
      return;
    }
    if (scope === 'full' && w.timer) clearTimeout(w.timer);
    w.running = this.cycle(stack, w, scope).finally(() => {
      w.running = undefined;
      if (this.stopping) return;
      const again = w.again;
      w.again = undefined;
      if (again) this.trigger(stack, again);
      else if (scope === 'full' || !w.timer) this.schedule(stack, w);
    });
  }

  private schedule(stack: string, w: StackWatch): void {
    if (w.timer) clearTimeout(w.timer);
    w.timer = setTimeout(() => { w.timer = undefined; this.trigger(stack, 'full'); }, this.settings.intervalMs);
  }

  private emit(e: WatchEvent): void {
    this.reporter.emit(e);
  }

  private async cycle(stack: string, w: StackWatch, scope: 'full' | 'mesh'): Promise<void> {
    if (!this.leases.holds(stack)) {
      this.metrics.cycles.inc({ stack, scope, outcome: 'not-held' });
      return;
    }
    const t0 = process.hrtime.bigint();
    const cpu0 = process.cpuUsage();
    const requests0 = this.clients.stats.requests;
    w.memo.takeCounts();
    const end = this.metrics.cycleSeconds.startTimer({ stack, scope });
    let outcome = 'ok';
    /** When this cycle held the stack's lock (the span in which it reconciled). */
    const held: { from?: string; until?: string } = {};
    try {
      if (scope === 'full') this.reloadApp(stack, w);
      const lock = await this.backend.lock(stack, 'watch', (m) => this.out.warn(m));
      held.from = new Date().toISOString();
      try {
        await this.reconcile(stack, w, scope);
      } finally {
        // Taken before the release: the span said is within the span the lock was held.
        held.until = new Date().toISOString();
        await lock.release();
      }
      this.metrics.lastSuccess.set({ stack }, Date.now() / 1000);
    } catch (e) {
      if (e instanceof LockedError) {
        outcome = 'locked';
        this.metrics.lockWaits.inc({ stack });
        this.emit({ event: 'locked', stack, holder: e.holder, message: `skipped this cycle: the stack is locked by ${e.holder.who} (${e.holder.operation} since ${e.holder.since})` });
      } else {
        outcome = 'error';
        this.emit({ event: 'error', stack, message: `cycle failed: ${(e as Error).message}` });
      }
    } finally {
      end();
      w.cycled = true;
      this.metrics.cycles.inc({ stack, scope, outcome });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      // The process's CPU while the cycle ran (cycles of other stacks that overlap it included).
      const cpu = process.cpuUsage(cpu0);
      const cpuMs = Math.round((cpu.user + cpu.system) / 1000);
      const { diffed, skipped } = w.memo.takeCounts();
      const requests = this.clients.stats.requests - requests0;
      this.emit({ event: 'cycle', stack, scope, outcome, ms: Math.round(ms), cpuMs, lockedFrom: held.from, lockedUntil: held.until, requests,
        drifted: w.reported.size, diffed, unchangedSkipped: skipped,
        message: `cycle (${scope}) ${outcome} in ${Math.round(ms)} ms (${cpuMs} ms CPU), ${requests} requests, ${diffed} object(s) diffed, ${skipped} read as last time (not diffed)` });
    }
  }

  /** Reads the synthesized app again (a whole cycle): a new synth shows in the plan as changes of the app. */
  private reloadApp(stack: string, w: StackWatch): void {
    const found = this.all().find((d) => d.stack === stack);
    if (found && found !== w.desired) w.memo.clear();
    if (found) w.desired = found;
  }

  private async reconcile(stack: string, w: StackWatch, scope: 'full' | 'mesh'): Promise<void> {
    const state = await StateStore.open(this.backend, stack, { verified: w.verified });
    const seen = `${state.lineage}:${state.serial}`;
    if (w.memoState !== seen) w.memo.clear();
    w.memoState = seen;
    const ctx: ReconcileContext = { backend: this.backend, clients: this.clients, all: this.all(), other: new OtherStacks(),
      parallelism: this.settings.parallelism, warn: (m) => this.out.warn(m) };
    const scoped = scope === 'mesh' ? await meshScope(w.desired, state, w.verified) : { desired: w.desired, state };
    // apply's plan, with apply's checks: an object another stack manages fails the cycle, and nothing is written.
    const plan = await planReconciled(scoped.desired, scoped.state, ctx, { memo: w.memo });
    // What the app changed since the last apply: never written back, renewed or updated, only reported (or applied).
    const unchanged = hasChanges(plan) ? await unchangedSinceLastApply(scoped.desired, scoped.state, ctx) : new Set(Object.keys(scoped.desired.resources));
    const f = classifyPlan(plan, unchanged);
    this.reportDrift(stack, w, scope, f.drifted);
    for (const c of f.conflicts) this.emit({ event: 'conflict', stack, address: c.address, kind: c.kind, message: `conflict ${c.address}: ${c.reason}` });
    if (f.conflicts.length) return; // nothing is written while a construct's identity is held by an object converge does not manage

    const { appChanges } = f;
    if (this.settings.applyAppChanges && appChanges.length) {
      // As `converge apply` would: in revert mode the whole plan; in report mode only what the app changed (drift elsewhere stays, reported).
      const revert = this.settings.onDrift === 'revert';
      await this.write(stack, w, plan, revert ? undefined : appChanges, state, ctx, 'applied');
      w.appReported = undefined;
      if (revert) return;
    } else if (appChanges.length) {
      const key = `${crypto.createHash('sha256').update(JSON.stringify(w.desired)).digest('hex')}|${appChanges.map((i) => `${i.address}:${i.action}`).join(',')}`;
      if (w.appReported !== key) {
        w.appReported = key;
        this.emit({ event: 'app-changed', stack, addresses: appChanges.map((i) => i.address),
          message: `app changed: run apply (${appChanges.length} object(s) differ from state: ${appChanges.slice(0, 5).map((i) => `${i.address} ${i.action}`).join(', ')}${appChanges.length > 5 ? ', …' : ''})` });
      }
    } else {
      w.appReported = undefined;
    }

    if (this.settings.onDrift !== 'revert') {
      const key = f.renewals.map((i) => i.address).join(',');
      if (key && w.renewalReported !== key) {
        this.emit({ event: 'renewal-due', stack, addresses: f.renewals.map((i) => i.address),
          message: `credentials due for renewal (${key}): run apply, or watch with --on-drift revert to renew them` });
      }
      w.renewalReported = key || undefined;
      const up = f.upstream.map((i) => i.address).join(',');
      if (up && w.upstreamReported !== up) {
        this.emit({ event: 'upstream-changed', stack, addresses: f.upstream.map((i) => i.address),
          message: `values read from other constructs changed for ${up}: run apply, or watch with --on-drift revert to update them` });
      }
      w.upstreamReported = up || undefined;
      return;
    }
    const writes = [...f.revertable, ...f.renewals, ...f.upstream];
    if (writes.length) await this.write(stack, w, plan, writes, state, ctx, 'reverted');
  }

  /** Applies the plan (only `items` of it, when given), under the lock already held, and says what was done. */
  private async write(stack: string, w: StackWatch, plan: StackPlan, items: readonly PlanItem[] | undefined, state: StateStore, ctx: ReconcileContext,
    verb: 'reverted' | 'applied'): Promise<void> {
    // Whatever the write did (or did not finish), the next cycle diffs every object again.
    w.memo.clear();
    const result = await applyReconciled(plan, state, ctx, items?.map((i) => i.address));
    const byAddress = new Map(plan.items.map((i) => [i.address, i]));
    for (const d of result.done) {
      const item = byAddress.get(d.address);
      const renewed = item?.issues || (item && !item.drift.length && verb === 'reverted' && item.changes.every((c) => c.unknown));
      const event = renewed ? 'renewed' : item && !item.drift.length && verb === 'reverted' ? 'updated' : verb;
      this.metrics.reverted.inc({ stack, kind: item?.kind ?? '' });
      const resolved = w.reported.delete(d.address);
      this.emit({ event, stack, address: d.address, kind: item?.kind, action: d.action,
        message: `${event} ${d.address} (${d.action})${event === 'reverted' ? ': written back to what the app declares' : event === 'updated' ? ': a value it reads changed' : ''}` +
          `${resolved ? '; drift resolved' : ''}` });
      // For --json readers (and the drift gauge's story): the drift this write resolved. A person reads it on the line above.
      if (resolved) this.emit({ event: 'drift-resolved', stack, address: d.address, kind: item?.kind, byWrite: true, message: `drift resolved: ${d.address}` });
    }
    for (const x of result.failed) this.emit({ event: 'revert-failed', stack, address: x.address, action: x.action, message: `could not write ${x.address} (${x.action}): ${x.error}` });
    for (const x of result.skipped) this.emit({ event: 'revert-failed', stack, address: x.address, action: x.action, message: `skipped ${x.address} (${x.action}): ${x.because}` });
    this.updateGauge(stack, w);
  }

  /** Reports drift that is new or changed since the last report, and drift that went away (within the cycle's scope). */
  private reportDrift(stack: string, w: StackWatch, scope: 'full' | 'mesh', drifted: readonly PlanItem[]): void {
    const now = new Set<string>();
    for (const i of drifted) {
      now.add(i.address);
      const key = driftKey(i);
      if (w.reported.get(i.address)?.key === key) continue;
      w.reported.set(i.address, { key, kind: i.kind });
      this.emit({ event: 'drift', stack, address: i.address, kind: i.kind, changes: i.drift.map(changeJson),
        message: `drift ${i.address} (${i.kind}): ${i.drift.map(describeChange).join('; ')}` });
    }
    for (const [address, r] of [...w.reported]) {
      if (now.has(address) || (scope === 'mesh' && !r.kind.startsWith('mesh.'))) continue;
      w.reported.delete(address);
      this.emit({ event: 'drift-resolved', stack, address, kind: r.kind, message: `drift resolved: ${address}` });
    }
    this.updateGauge(stack, w);
  }

  private updateGauge(stack: string, w: StackWatch): void {
    const counts = new Map<string, number>();
    for (const r of w.reported.values()) counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
    for (const kind of new Set([...w.gaugeKinds, ...counts.keys()])) {
      this.metrics.drifted.set({ stack, kind }, counts.get(kind) ?? 0);
      w.gaugeKinds.add(kind);
    }
  }
}
