import { PREFLIGHT_PATH, SECRETS_POLICY } from '../../lib/secrets/policy';

/** The placeholders docs/secrets-policy.md's table writes for a construct's props. */
export const PLACEHOLDER_SPEC: Record<string, unknown> = {
  mount: '<mount>', path: '<path>', name: '<name>', role: '<role>', setName: '<set>', id: '<id>',
  known: { mount: '<mount>', path: '<path>' },
};

/** Table rows beyond one per kind: a prop that adds paths. */
export const VARIANTS: Record<string, Record<string, unknown>> = {
  'secrets.DatabaseConnection (rotateRootOnCreate)': { kind: 'secrets.DatabaseConnection', rotateRootOnCreate: true },
};

/** The row of the path converge's preflight asks (`sys/capabilities-self`). */
export const PREFLIGHT_ROW = '(the preflight, any stack)';

/** What each row of the table must say: `path`: capabilities, joined with "; ". */
export function expectedRows(): Map<string, string> {
  const render = (kind: string, spec: Record<string, unknown>) =>
    SECRETS_POLICY[kind](spec).map((p) => `\`${p.path}\`: ${p.capabilities.join(', ')}`).join('; ');
  const rows = new Map<string, string>();
  for (const kind of Object.keys(SECRETS_POLICY)) rows.set(kind, render(kind, PLACEHOLDER_SPEC));
  for (const [label, v] of Object.entries(VARIANTS)) rows.set(label, render(String(v.kind), { ...PLACEHOLDER_SPEC, ...v }));
  // Every stack with secrets constructs: the preflight asks the service what the token may do.
  rows.set(PREFLIGHT_ROW, `\`${PREFLIGHT_PATH}\`: update`);
  return rows;
}
