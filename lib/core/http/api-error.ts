/** What went wrong calling an API: keeps the API's status and message, never a token or a request body. */
export class ApiError extends Error {
  constructor(
    /** HTTP status, or 0 when no answer came (timeout, connection reset). */
    public readonly status: number,
    /** The API's own messages (JSON:API `errors[].detail`, the secrets service's `errors[]`, a plain body). */
    public readonly apiMessages: string[],
    public readonly method: string,
    public readonly path: string,
    public readonly api: string,
    /** The construct address the request was made for, when there is one. */
    public readonly constructPath?: string,
    /** Environment variable holding the token, named in permission errors. */
    public readonly tokenVariable?: string,
  ) {
    super(ApiError.format(status, apiMessages, method, path, api, constructPath, tokenVariable));
    this.name = 'ApiError';
  }

  private static format(status: number, messages: string[], method: string, path: string, api: string,
    constructPath?: string, tokenVariable?: string): string {
    const where = constructPath ? `${constructPath}: ` : '';
    const what = messages.length ? messages.join('; ') : (status ? 'no message' : 'no answer');
    let hint = '';
    if (status === 401 || status === 403) {
      hint = ` (permission denied: check the token in ${tokenVariable ?? 'the API token variable'})`;
    }
    return `${where}${api} API ${method} ${path} failed with ${status || 'a connection error'}: ${what}${hint}`;
  }
}

/** Extracts the API's messages from an error body of any of the three APIs. */
export function apiMessagesOf(body: unknown): string[] {
  if (body == null) return [];
  if (typeof body === 'string') return body.trim() ? [body.trim().slice(0, 500)] : [];
  const errors = (body as { errors?: unknown }).errors;
  if (Array.isArray(errors)) {
    return errors.map((e) => {
      if (typeof e === 'string') return e;
      const o = e as { detail?: string; title?: string; status?: string | number };
      return [o.title, o.detail].filter(Boolean).join(': ') || JSON.stringify(e);
    });
  }
  return [JSON.stringify(body).slice(0, 500)];
}
