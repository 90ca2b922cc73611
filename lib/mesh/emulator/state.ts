import { AclState, GLOBAL_MANAGEMENT } from './acl';
import { ConfigEntry } from '../compiler';

/** One stored configuration entry with its raft indexes. */
export interface StoredEntry {
  readonly entry: ConfigEntry;
  readonly namespace: string;
  readonly createIndex: number;
  readonly modifyIndex: number;
}

/** Everything the mesh emulator keeps (and snapshots): entries by `<kind>/<ns>/<name>`, the index, ACLs. */
export interface MeshState {
  /** The config-entries table index: the raft index of the last write or delete (at least 1). */
  index: number;
  entries: Record<string, StoredEntry>;
  acl: AclState;
}

export function emptyState(): MeshState {
  return { index: 1, entries: {}, acl: { tokens: [], policies: [GLOBAL_MANAGEMENT] } };
}
