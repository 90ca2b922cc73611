// Value sets the schemas of several families check against: one list each, so that two kinds
// taking the same wire value cannot drift apart.

/** Execution modes of an organization's default and of a workspace (the spec's `execution-mode`). */
export const EXECUTION_MODES = ['remote', 'local', 'agent'] as const;

/** Variable categories of a workspace's, a variable set's or a no-code workspace's variables (the spec's `category`). */
export const VARIABLE_CATEGORIES = ['engine', 'env'] as const;
