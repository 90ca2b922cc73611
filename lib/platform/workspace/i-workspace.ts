/** A workspace: one this app manages, or one looked up with `Workspace.fromName`. */
export interface IWorkspace {
  /** The workspace id (`ws-…`), known once read or applied. */
  readonly workspaceId: string;
  /** The workspace name. */
  readonly workspaceName: string;
}
