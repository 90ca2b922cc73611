import { EmuRequest, EmuResponse } from '../../core/emulator-kit/types';

/** JSON:API media type of every platform answer. */
export const JSONAPI = 'application/vnd.api+json';
export const BASE = '/api/v2';

export interface ErrorObject {
  readonly status: string | number;
  readonly title: string;
  readonly detail?: string;
  readonly source?: { pointer: string };
}

/** A JSON:API document answer. */
export function doc(status: number, body?: unknown): EmuResponse {
  return { status, body, contentType: JSONAPI };
}

export function errors(status: number, ...objs: ErrorObject[]): EmuResponse {
  return doc(status, { errors: objs });
}

export function notFound(): EmuResponse {
  return errors(404, { status: '404', title: 'not found' });
}

export function unauthorized(): EmuResponse {
  return errors(401, { status: '401', title: 'unauthorized' });
}

/** 422 with one error object per problem (the platform lists each failed validation). */
export function unprocessable(...details: string[]): EmuResponse {
  return errors(422, ...details.map((d) => ({ status: '422', title: 'invalid attribute', detail: d })));
}

export function badRequest(detail: string): EmuResponse {
  return errors(400, { status: '400', title: 'bad request', detail });
}

/** Thrown inside a route to answer an error document. */
export class ApiFailure extends Error {
  constructor(public readonly response: EmuResponse) {
    super('api failure');
  }
}

/** Parses a JSON:API request body with `data.type` checked; throws a 422 `ApiFailure` otherwise. */
export function readData(req: EmuRequest, type: string): { attributes: Record<string, unknown>; relationships: Record<string, unknown>; id?: unknown } {
  let body: unknown;
  try {
    body = req.body.length ? JSON.parse(req.body.toString('utf8')) : undefined;
  } catch {
    throw new ApiFailure(unprocessable('the request body is not valid JSON'));
  }
  const data = (body as { data?: unknown } | undefined)?.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ApiFailure(unprocessable('the request body must be a JSON:API document with a "data" object'));
  }
  const d = data as Record<string, unknown>;
  if (d.type !== type) throw new ApiFailure(unprocessable(`data.type must be "${type}"`));
  const attributes = d.attributes ?? {};
  const relationships = d.relationships ?? {};
  if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes)) {
    throw new ApiFailure(unprocessable('data.attributes must be an object'));
  }
  if (typeof relationships !== 'object' || relationships === null || Array.isArray(relationships)) {
    throw new ApiFailure(unprocessable('data.relationships must be an object'));
  }
  return { attributes: attributes as Record<string, unknown>, relationships: relationships as Record<string, unknown>, id: d.id };
}

/** Page parameters: undefined when the request asks for the unpaginated form (neither given). */
export interface PageRequest {
  readonly number: number;
  readonly size: number;
}

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/**
 * Reads `page[number]` and `page[size]` (URLSearchParams has already decoded `%5B`/`%5D`).
 * `unpaginatedWhenAbsent`: the list answers everything when both are absent.
 */
export function pageRequest(query: URLSearchParams, unpaginatedWhenAbsent: boolean): PageRequest | undefined {
  const rawNumber = query.get('page[number]');
  const rawSize = query.get('page[size]');
  if (unpaginatedWhenAbsent && rawNumber === null && rawSize === null) return undefined;
  const n = Number.parseInt(rawNumber ?? '', 10);
  const s = Number.parseInt(rawSize ?? '', 10);
  return {
    number: Number.isFinite(n) && n >= 1 ? n : 1,
    size: Number.isFinite(s) && s >= 1 ? Math.min(s, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE,
  };
}

/**
 * One page of a list with `links` (absolute, as the platform sends them; `prev`/`next` null at
 * the ends) and `meta.pagination`.
 */
export function paginate<T>(items: T[], page: PageRequest, req: EmuRequest, opts: { pageSizeInMeta?: boolean } = {}): {
  items: T[]; links: Record<string, string | null>; pagination: Record<string, number | null>;
} {
  const total = items.length;
  const totalPages = Math.max(1, Math.ceil(total / page.size));
  const current = page.number;
  const slice = items.slice((current - 1) * page.size, current * page.size);
  const origin = `http://${req.headers.host ?? 'localhost'}`;
  const link = (n: number): string => {
    const q = new URLSearchParams(req.query);
    q.set('page[number]', String(n));
    q.set('page[size]', String(page.size));
    return `${origin}${req.rawPath}?${q.toString()}`;
  };
  const prev = current > 1 ? Math.min(current - 1, totalPages) : null;
  const next = current < totalPages ? current + 1 : null;
  return {
    items: slice,
    links: {
      self: link(current), first: link(1), prev: prev === null ? null : link(prev),
      next: next === null ? null : link(next), last: link(totalPages),
    },
    pagination: {
      'current-page': current,
      ...(opts.pageSizeInMeta ? { 'page-size': page.size } : {}),
      'prev-page': prev, 'next-page': next, 'total-pages': totalPages, 'total-count': total,
    },
  };
}

/** A plain-text answer (the no-code upgrade confirm). */
export function text(status: number, body: string): EmuResponse {
  return { status, body, contentType: 'text/plain; charset=utf-8' };
}

/** The names of `include` (comma-separated); empty when absent. */
export function includes(query: URLSearchParams): string[] {
  const raw = query.get('include');
  return raw ? raw.split(',').map((s) => s.trim()).filter(Boolean) : [];
}

/** Parses a JSON:API body whose `data` is an array of resource identifiers (relationship endpoints). */
export function readIdentifiers(req: EmuRequest, type: string): string[] {
  let body: unknown;
  try {
    body = req.body.length ? JSON.parse(req.body.toString('utf8')) : { data: [] };
  } catch {
    throw new ApiFailure(unprocessable('the request body is not valid JSON'));
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiFailure(unprocessable('the request body must be a JSON:API document'));
  const data = (body as { data?: unknown }).data ?? [];
  if (!Array.isArray(data)) throw new ApiFailure(unprocessable('data must be an array of resource identifiers'));
  return data.map((d, i) => {
    if (typeof d !== 'object' || d === null || typeof (d as any).id !== 'string' || (d as any).type !== type) {
      throw new ApiFailure(unprocessable(`data[${i}] must be {"id": …, "type": "${type}"}`));
    }
    return (d as any).id as string;
  });
}

/** The `data` of a relationship in a request body: undefined when absent. */
export function relationshipData(relationships: Record<string, unknown>, name: string): unknown {
  const r = relationships[name];
  if (r === undefined || r === null) return undefined;
  if (typeof r !== 'object' || Array.isArray(r)) throw new ApiFailure(unprocessable(`data.relationships.${name} must be an object`));
  return (r as { data?: unknown }).data;
}

/** A list with `q`/sort already applied, paginated or not, as a document. */
export function listDocument<T>(items: T[], page: PageRequest | undefined, req: EmuRequest, render: (t: T) => unknown,
  extraMeta: Record<string, unknown> = {}): EmuResponse {
  if (!page) return doc(200, { data: items.map(render), ...(Object.keys(extraMeta).length ? { meta: extraMeta } : {}) });
  const p = paginate(items, page, req);
  return doc(200, { data: p.items.map(render), links: p.links, meta: { ...extraMeta, pagination: p.pagination } });
}
