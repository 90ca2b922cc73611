import { createHash } from 'crypto';
import { Router } from '../../core/emulator-kit/router';
import { PlatformContext } from '../emulator/context';
import { BASE, doc, notFound, readData, unprocessable } from '../emulator/jsonapi';
import { newId, OrganizationRecord, VariableSetRecord, VarRecord } from '../emulator/state';

const CATEGORIES = ['engine', 'env'];
const KEY_RE = /^[A-Za-z0-9_.-]{1,128}$/;

/** What is wrong with a variable's attributes in its set (key unique per category, as in a workspace). */
function problemsOf(set: VariableSetRecord, v: VarRecord | undefined, a: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const key = a.key ?? v?.key;
  const category = a.category ?? v?.category;
  if (typeof key !== 'string' || !key) problems.push('Key can\'t be blank');
  else if (!KEY_RE.test(key)) problems.push('Key must contain only letters, numbers, underscores, dots and hyphens');
  if (typeof category !== 'string' || !CATEGORIES.includes(category)) problems.push(`Category must be one of ${CATEGORIES.join(', ')}`);
  else if ((set.vars ?? []).some((x) => x !== v && x.key === key && x.category === category)) problems.push('Key has already been taken');
  for (const k of ['value', 'description'] as const) if (k in a && a[k] !== null && typeof a[k] !== 'string') problems.push(`${k} must be a string`);
  for (const k of ['hcl', 'sensitive'] as const) if (k in a && typeof a[k] !== 'boolean') problems.push(`${k} must be a boolean`);
  if (v?.sensitive && a.sensitive === false) problems.push('Sensitive variables cannot be made non-sensitive');
  return problems;
}

/**
 * A variable set's own variables: the real platform's `GET`/`POST /varsets/<id>/relationships/vars` and
 * `GET`/`PATCH`/`DELETE /varsets/<id>/relationships/vars/<var id>` (go-tfe's `VariableSetVariables`), documents of
 * type `vars` with the relationship `varset`. A sensitive value is never answered (null).
 */
export function registerVariableSetVariableRoutes(router: Router<PlatformContext>,
  visible: (ctx: PlatformContext, id: string) => VariableSetRecord | undefined,
  managed: (ctx: PlatformContext, id: string) => { set: VariableSetRecord; org: OrganizationRecord }): void {
  const path = `${BASE}/varsets/:id/relationships/vars`;
  router.add('GET', path, (_req, p, ctx) => {
    const set = visible(ctx, p.id);
    return set ? doc(200, { data: (set.vars ?? []).map((v) => varResource(set, v)) }) : notFound();
  });
  router.add('POST', path, (req, p, ctx) => {
    const { set } = managed(ctx, p.id);
    const { attributes: a } = readData(req, 'vars');
    const problems = problemsOf(set, undefined, a);
    if (problems.length) return unprocessable(...problems);
    const v: VarRecord = {
      id: newId(ctx.state, 'var'), key: a.key as string, value: (a.value as string | null) ?? '', description: (a.description as string | null) ?? '',
      category: a.category as VarRecord['category'], hcl: (a.hcl as boolean) ?? false, sensitive: (a.sensitive as boolean) ?? false,
    };
    set.vars = [...(set.vars ?? []), v];
    return doc(201, { data: varResource(set, v) });
  });
  router.add('GET', `${path}/:var`, (_req, p, ctx) => {
    const set = visible(ctx, p.id);
    const v = set?.vars?.find((x) => x.id === p.var);
    return set && v ? doc(200, { data: varResource(set, v) }) : notFound();
  });
  router.add('PATCH', `${path}/:var`, (req, p, ctx) => {
    const { set } = managed(ctx, p.id);
    const v = set.vars?.find((x) => x.id === p.var);
    if (!v) return notFound();
    const { attributes: a } = readData(req, 'vars');
    const problems = problemsOf(set, v, a);
    if (problems.length) return unprocessable(...problems);
    for (const k of ['key', 'value', 'description', 'category', 'hcl', 'sensitive'] as const) {
      if (a[k] !== undefined) (v as unknown as Record<string, unknown>)[k] = a[k] ?? (k === 'value' || k === 'description' ? '' : a[k]);
    }
    return doc(200, { data: varResource(set, v) });
  });
  router.add('DELETE', `${path}/:var`, (_req, p, ctx) => {
    const { set } = managed(ctx, p.id);
    const v = set.vars?.find((x) => x.id === p.var);
    if (!v) return notFound();
    set.vars = set.vars!.filter((x) => x !== v);
    return { status: 204 };
  });
}

function varResource(set: VariableSetRecord, v: VarRecord): Record<string, unknown> {
  return {
    id: v.id,
    type: 'vars',
    attributes: {
      key: v.key, value: v.sensitive ? null : v.value, sensitive: v.sensitive, category: v.category, hcl: v.hcl, description: v.description,
      'version-id': createHash('sha256').update(JSON.stringify(v)).digest('hex').slice(0, 40),
    },
    relationships: { varset: { data: { id: set.id, type: 'varsets' }, links: { related: `${BASE}/varsets/${set.id}` } } },
    links: { self: `${BASE}/varsets/${set.id}/relationships/vars/${v.id}` },
  };
}
