import { parseGoBool } from '../../core/emulator-kit/go-bool';
import { EmuRequest } from '../../core/emulator-kit/types';

/** What a request below `/v1` is served as: the ACL checks exactly this, and the engines serve exactly this. */
export interface RequestTarget {
  /** `LIST`, `POST` (for PUT and POST), or the request's method. */
  readonly operation: string;
  /** The path below `/v1/` (no leading slash): trailing slashes dropped, except one on a LIST. */
  readonly path: string;
}

/**
 * The operation a request asks for: `LIST` for the LIST method or a GET whose `list` parameter is
 * true as Go's `strconv.ParseBool` reads it (`1`, `t`, `T`, `TRUE`, `true`, `True`); `POST` for
 * PUT and POST. A `list` value ParseBool refuses: undefined (answered 400 `{"errors":[]}`, as the
 * real service does).
 */
export function operationOf(req: EmuRequest): string | undefined {
  if (req.method === 'LIST') return 'LIST';
  if (req.method === 'GET') {
    const raw = req.query.get('list');
    if (raw === null || raw === '') return 'GET';
    const list = parseGoBool(raw);
    if (list === undefined) return undefined;
    return list ? 'LIST' : 'GET';
  }
  return req.method === 'PUT' ? 'POST' : req.method;
}

/**
 * The one place a request's operation and path are normalised (undefined: a `list` value that is no
 * boolean). The engines read a name with a trailing slash as the name, so the path is checked
 * without it: checked as given, `GET totp/code/alice/` passed a policy that denies `totp/code/alice`.
 */
export function requestTarget(req: EmuRequest): RequestTarget | undefined {
  const operation = operationOf(req);
  if (!operation) return undefined;
  const rest = req.path.slice('/v1/'.length);
  const bare = rest.replace(/\/+$/, '');
  return { operation, path: operation === 'LIST' && bare !== rest ? `${bare}/` : bare };
}
