/** A variable set: one this app manages (`VariableSet`). */
export interface IVariableSet {
  /** The set id (`varset-…`), known once applied. */
  readonly variableSetId: string;
}
