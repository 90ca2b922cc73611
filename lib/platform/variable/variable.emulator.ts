import { createHash } from 'crypto';
import { Router } from '../../core/emulator-kit/router';
import { canDo, PlatformContext, visibleOrganizationById } from '../emulator/context';
import { BASE, doc, notFound, readData, unprocessable } from '../emulator/jsonapi';
import { newId, VarRecord, WorkspaceRecord } from '../emulator/state';

/** The categories of a workspace variable: the spec's `engine` (input variables of the configuration) and `env`. */
const CATEGORIES = ['engine', 'env'];
/** The real platform's rule for a variable key: letters, numbers, `_` and `-` (an env key also `.`, not leading with a digit). */
const KEY_RE = /^[A-Za-z0-9_.-]{1,128}$/;

/** What is wrong with the key and category a variable would take (unique per workspace and category). */
export function keyProblems(ws: WorkspaceRecord, v: VarRecord | undefined, a: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const key = a.key ?? v?.key;
  const category = a.category ?? v?.category;
  if (typeof key !== 'string' || !key) problems.push('Key can\'t be blank');
  else if (!KEY_RE.test(key)) problems.push('Key must contain only letters, numbers, underscores, dots and hyphens');
  if (typeof category !== 'string' || !CATEGORIES.includes(category)) problems.push(`Category must be one of ${CATEGORIES.join(', ')}`);
  else if (ws.vars.some((x) => x !== v && x.key === key && x.category === category)) problems.push('Key has already been taken');
  return problems;
}

/**
 * Creating, reading and deleting a workspace variable: not in the spec's excerpt, but the real
 * platform's `POST /workspaces/<id>/vars`, `GET`/`DELETE /workspaces/<id>/vars/<var id>` (go-tfe's
 * `Variables`); the list and the PATCH are in `registerWorkspaceRoutes`. A sensitive value is never
 * answered (null).
 */
export function registerVariableRoutes(router: Router<PlatformContext>): void {
  const workspaceOf = (ctx: PlatformContext, id: string, write: boolean): WorkspaceRecord | undefined => {
    const ws = ctx.state.workspaces[id];
    const org = ws && visibleOrganizationById(ctx, ws.organizationId);
    return ws && org && (!write || canDo(ctx, org, 'create-workspaces')) ? ws : undefined;
  };
  router.add('POST', `${BASE}/workspaces/:id/vars`, (req, p, ctx) => {
    const ws = workspaceOf(ctx, p.id, true);
    if (!ws) return notFound();
    const { attributes: a } = readData(req, 'vars');
    const problems = keyProblems(ws, undefined, { category: a.category, key: a.key });
    for (const k of ['value', 'description'] as const) if (k in a && a[k] !== null && typeof a[k] !== 'string') problems.push(`${k} must be a string`);
    for (const k of ['hcl', 'sensitive'] as const) if (k in a && typeof a[k] !== 'boolean') problems.push(`${k} must be a boolean`);
    if (problems.length) return unprocessable(...problems);
    const v: VarRecord = {
      id: newId(ctx.state, 'var'), key: a.key as string, value: (a.value as string | null) ?? '', description: (a.description as string | null) ?? '',
      category: a.category as VarRecord['category'], hcl: (a.hcl as boolean) ?? false, sensitive: (a.sensitive as boolean) ?? false,
    };
    ws.vars.push(v);
    return doc(201, { data: varResource(ws, v) });
  });
  router.add('GET', `${BASE}/workspaces/:id/vars/:var`, (_req, p, ctx) => {
    const ws = workspaceOf(ctx, p.id, false);
    const v = ws?.vars.find((x) => varId(ws, x) === p.var);
    return ws && v ? doc(200, { data: varResource(ws, v) }) : notFound();
  });
  router.add('DELETE', `${BASE}/workspaces/:id/vars/:var`, (_req, p, ctx) => {
    const ws = workspaceOf(ctx, p.id, true);
    const v = ws?.vars.find((x) => varId(ws, x) === p.var);
    if (!ws || !v) return notFound();
    ws.vars = ws.vars.filter((x) => x !== v);
    return { status: 204 };
  });
}

/** A variable's id (`var-…`): stable per workspace, category and key. */
export function varId(ws: WorkspaceRecord, v: VarRecord): string {
  if (v.id) return v.id;
  return `var-${createHash('sha256').update(`${ws.id}/${v.category}/${v.key}`).digest('hex').slice(0, 16)}`;
}

export function varResource(ws: WorkspaceRecord, v: VarRecord): Record<string, unknown> {
  return {
    id: varId(ws, v),
    type: 'vars',
    attributes: {
      key: v.key, value: v.sensitive ? null : v.value, sensitive: v.sensitive, category: v.category, hcl: v.hcl,
      description: v.description, 'created-at': ws.createdAt, 'version-id': createHash('sha256').update(JSON.stringify(v)).digest('hex').slice(0, 40),
    },
    relationships: { configurable: { data: { id: ws.id, type: 'workspaces' }, links: { related: `${BASE}/workspaces/${ws.id}` } } },
    links: { self: `${BASE}/workspaces/${ws.id}/vars/${varId(ws, v)}` },
  };
}
