import { DesiredResource, DesiredStack } from '../../core/model';
import { VerifiedRecords } from '../../core/state/record-seal';
import { StateBackend, StateDocument } from '../../core/state/state-model';
import { StateStore } from '../../core/state/state-store';

/**
 * The mesh part of a stack, to plan when a blocking query says mesh entries changed: its mesh
 * constructs with everything they reference, and the state records of the mesh API (an entry that
 * left the app plans as it would in a whole plan). Planning it costs the mesh reads only.
 */
export async function meshScope(desired: DesiredStack, state: StateStore, verified?: VerifiedRecords): Promise<{ desired: DesiredStack; state: StateStore }> {
  const keep = new Map<string, DesiredResource>();
  const add = (address: string) => {
    const r = desired.resources[address];
    if (!r || keep.has(address)) return;
    keep.set(address, r);
    r.dependsOn.forEach(add);
  };
  for (const [address, r] of Object.entries(desired.resources)) if (r.provider.api === 'mesh') add(address);
  const resources = Object.fromEntries([...keep]);
  const doc = state.document;
  const records = Object.fromEntries(Object.entries(doc.resources).filter(([a, rec]) => keep.has(a) || rec.provider.api === 'mesh'));
  const scopedState = await StateStore.open(new SnapshotBackend({ ...doc, resources: records }), desired.stack, { verified });
  return { desired: { ...desired, resources }, state: scopedState };
}

/** A read-only state backend holding one document (a part of a state read under its lock): planning only. */
class SnapshotBackend implements StateBackend {
  constructor(private readonly doc: StateDocument) {}
  public describe(): string { return 'a snapshot of the state'; }
  public async read(): Promise<StateDocument> { return this.doc; }
  public async write(): Promise<void> { throw new Error('internal: a scoped plan never writes state'); }
  public async lock(): Promise<never> { throw new Error('internal: a scoped plan takes no lock'); }
  public async forceUnlock(): Promise<void> { throw new Error('internal: a scoped plan takes no lock'); }
  public async stacks(): Promise<string[]> { return [this.doc.stack]; }
}
