import { SECRETS_POLICY } from '../../lib/secrets/policy';

/** The placeholders docs/secrets-policy.md's table writes for a construct's props. */
export const PLACEHOLDER_SPEC: Record<string, unknown> = {
  mount: '<mount>', path: '<path>', name: '<name>', role: '<role>', setName: '<set>', id: '<id>',
  known: { mount: '<mount>', path: '<path>' },
};

/** Table rows beyond one per kind: a prop that adds paths. */
export const VARIANTS: Record<string, Record<string, unknown>> = {
  'secrets.DatabaseConnection (rotateRootOnCreate)': { kind: 'secrets.DatabaseConnection', rotateRootOnCreate: true },
};

/** What each row of the table must say: `path`: capabilities, joined with "; ". */
export function expectedRows(): Map<string, string> {
  const render = (kind: string, spec: Record<string, unknown>) =>
    SECRETS_POLICY[kind](spec).map((p) => `\`${p.path}\`: ${p.capabilities.join(', ')}`).join('; ');
  const rows = new Map<string, string>();
  for (const kind of Object.keys(SECRETS_POLICY)) rows.set(kind, render(kind, PLACEHOLDER_SPEC));
  for (const [label, v] of Object.entries(VARIANTS)) rows.set(label, render(String(v.kind), { ...PLACEHOLDER_SPEC, ...v }));
  return rows;
}
