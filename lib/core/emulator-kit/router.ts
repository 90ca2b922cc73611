import { EmuRequest, EmuResponse } from './types';

/** Path parameters captured by a route pattern. */
export type Params = Record<string, string>;
export type RouteHandler<C> = (req: EmuRequest, params: Params, ctx: C) => EmuResponse | Promise<EmuResponse>;

interface Route<C> {
  readonly method: string;
  readonly regex: RegExp;
  readonly names: string[];
  readonly handler: RouteHandler<C>;
}

/**
 * A tiny method + path router. Patterns use `:name` for one segment and `*name` for the
 * rest of the path (which may contain slashes), e.g. `/v1/:mount/data/*path`.
 */
export class Router<C> {
  private readonly routes: Route<C>[] = [];

  public add(method: string | string[], pattern: string, handler: RouteHandler<C>): this {
    const names: string[] = [];
    const source = pattern
      .split('/')
      .map((seg) => {
        if (seg.startsWith(':')) { names.push(seg.slice(1)); return '([^/]+)'; }
        if (seg.startsWith('*')) { names.push(seg.slice(1)); return '(.+)'; }
        return seg.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
      })
      .join('/');
    for (const m of Array.isArray(method) ? method : [method]) {
      this.routes.push({ method: m, regex: new RegExp(`^${source}/?$`), names, handler });
    }
    return this;
  }

  /**
   * Finds the route for a request. Returns `'method'` when the path matches but the method
   * does not (the caller answers 405), undefined when nothing matches.
   */
  public match(req: EmuRequest): { handler: RouteHandler<C>; params: Params } | 'method' | undefined {
    let pathMatched = false;
    for (const r of this.routes) {
      const m = r.regex.exec(req.path);
      if (!m) continue;
      pathMatched = true;
      if (r.method !== req.method) continue;
      const params: Params = {};
      r.names.forEach((n, i) => { params[n] = m[i + 1]; });
      return { handler: r.handler, params };
    }
    return pathMatched ? 'method' : undefined;
  }
}
