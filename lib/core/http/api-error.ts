import { RedactionContext, redactJson, redactText } from './redact';

/** How a failed request ended, beyond its status. */
export interface ApiErrorDetails {
  /** The same request could succeed if sent again (no answer, 429, a server error that is not deterministic). */
  readonly retryable?: boolean;
  /** The client stopped retrying a retryable failure because its retries (or the wait the server asked for) ran out. */
  readonly exhausted?: boolean;
  /** A sentence added to the message (what to check). */
  readonly hint?: string;
}

/** What went wrong calling an API: keeps the API's status and message, never a token or a request body. */
export class ApiError extends Error {
  /** The same request could succeed if sent again. */
  public readonly retryable: boolean;
  /** Retries already ran out: sending it again now is pointless. */
  public readonly exhausted: boolean;

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
    details: ApiErrorDetails = {},
  ) {
    super(ApiError.format(status, apiMessages, method, path, api, constructPath, tokenVariable, details.hint));
    this.name = 'ApiError';
    this.retryable = details.retryable ?? (status === 0 || status === 429 || status >= 500);
    this.exhausted = details.exhausted ?? false;
  }

  private static format(status: number, messages: string[], method: string, path: string, api: string,
    constructPath?: string, tokenVariable?: string, extra?: string): string {
    const where = constructPath ? `${constructPath}: ` : '';
    const what = messages.length ? messages.join('; ') : (status ? 'no message' : 'no answer');
    let hint = '';
    // A 401 is the token itself; a 403 may be a valid token without the permission: never blamed on the token.
    const variable = tokenVariable ?? 'the API token variable';
    if (status === 401) hint = ` (permission denied: check the token in ${variable})`;
    // Except where the service says that it does not know the token (the mesh's "ACL not found", the secrets service's "invalid token").
    if (status === 403) {
      hint = /\bACL not found\b|\binvalid token\b/i.test(what) ? ` (permission denied: the service does not know the token in ${variable}: invalid or expired)`
        : ` (permission denied: the token in ${variable} is not allowed this)`;
    }
    if (extra) hint += ` (${extra})`;
    return `${where}${api} API ${method} ${path} failed with ${status || 'a connection error'}: ${what}${hint}`;
  }
}

const NO_SECRETS: RedactionContext = { literals: [], dataIsSecret: false };

/**
 * Extracts the API's messages from an error body of any of the three APIs, with whatever
 * could carry a secret redacted (see redact.ts); at most 500 characters of a body that is no error document.
 */
export function apiMessagesOf(body: unknown, redaction: RedactionContext = NO_SECRETS): string[] {
  if (body == null) return [];
  if (typeof body === 'string') return body.trim() ? [redactText(body.trim(), redaction).slice(0, 500)] : [];
  const errors = (body as { errors?: unknown }).errors;
  if (Array.isArray(errors)) {
    return errors.map((e) => {
      if (typeof e === 'string') return redactText(e, redaction);
      const o = e as { detail?: string; title?: string; status?: string | number };
      const text = [o.title, o.detail].filter((x) => typeof x === 'string' && x).join(': ') || JSON.stringify(redactJson(e, redaction.dataIsSecret));
      return redactText(text, redaction);
    });
  }
  return [redactText(JSON.stringify(redactJson(body, redaction.dataIsSecret)), redaction).slice(0, 500)];
}
