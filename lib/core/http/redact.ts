/**
 * Redaction of what an API answer can carry of a secret before it becomes part of an error
 * message (which reaches the terminal, CI logs and `--log-level debug`).
 *
 * An error message keeps the API's own words (JSON:API `errors[].detail`, the secrets
 * service's `errors[]`), but:
 * - any value the request carried under a sensitive name, the token, and every value under
 *   `data` of a secrets request is replaced wherever it appears, even inside those words;
 * - a JSON body that is no error document is shown with the values of sensitive names, and
 *   of the secrets service's `data`, replaced;
 * - `name=value` and `name: value` in plain text are cut after a sensitive name, as is the
 *   value of any header line (`Authorization: …`) and of `Bearer …`.
 */

export const REDACTED = '(redacted)';

/** Field names whose values are secrets (JSON keys, query parameters, header names). */
const SENSITIVE_NAME = /token|secret|passw|pwd|private[-_]?key|client[-_]?key|secret[-_]?key|credential|api[-_]?key|auth|cookie|session|otp|barcode|bindpass|signature|cert(?:ificate)?[-_]?key|^key$|^pem/i;

/** True when a field (or header) of this name holds a secret. */
export function isSensitiveName(name: string): boolean {
  return SENSITIVE_NAME.test(name);
}

/** What to hide in the messages of one request's answer. */
export interface RedactionContext {
  /** Literal values (a token, a password sent in the body) replaced wherever they appear. */
  readonly literals: readonly string[];
  /** Every value under a `data` key is a secret (the secrets service's reads and writes). */
  readonly dataIsSecret: boolean;
}

/** The values a request body carries under sensitive names (and under `data` when `dataIsSecret`). */
export function sensitiveValuesOf(body: unknown, dataIsSecret: boolean): string[] {
  const out: string[] = [];
  const walk = (v: unknown, secret: boolean): void => {
    if (typeof v === 'string' || typeof v === 'number') {
      if (secret && String(v).length >= 4) out.push(String(v));
      return;
    }
    if (Array.isArray(v)) { for (const x of v) walk(x, secret); return; }
    if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) walk(x, secret || isSensitiveName(k) || (dataIsSecret && k === 'data'));
    }
  };
  let parsed = body;
  if (typeof body === 'string') {
    try { parsed = JSON.parse(body); } catch { return out; }
  }
  walk(parsed, false);
  return out;
}

/** A JSON value with the values of sensitive names (and of `data` when `dataIsSecret`) replaced. */
export function redactJson(v: unknown, dataIsSecret: boolean): unknown {
  if (Array.isArray(v)) return v.map((x) => redactJson(x, dataIsSecret));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      // Echoed headers: no header value is kept (the names help diagnose).
      const hide = isSensitiveName(k) || /^(?:request[-_]?)?headers$/i.test(k) || (dataIsSecret && k === 'data' && x !== null);
      out[k] = hide ? (x && typeof x === 'object' ? redactKeysOnly(x) : REDACTED) : redactJson(x, dataIsSecret);
    }
    return out;
  }
  return v;
}

/** Keeps the shape (key names help diagnose), hides every leaf. */
function redactKeysOnly(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(redactKeysOnly);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, redactKeysOnly(x)]));
  return REDACTED;
}

const HEADER_LINE = /^([A-Za-z0-9-]{2,64}):[ \t]*\S.*$/gm;
const SECRET_WORD = '[A-Za-z0-9_.-]*(?:token|secret|passw|pwd|private[-_]?key|credential|api[-_]?key|authorization|cookie|otp|bindpass)[A-Za-z0-9_.-]*';
const VALUE = '("[^"]*"|\'[^\']*\'|(?:(?:Bearer|Basic)\\s+)?[^\\s,;&}]+)';
/**
 * A sensitive name and its value: `name=value` anywhere, `"name": value` (quoted, as in JSON), and
 * `Name: value` at the start of a line (a header), `name: "value"`. An unquoted `token: …` inside a sentence is prose
 * ("error creating the token: permission denied") and stays.
 */
const NAME_VALUE = [
  new RegExp(`()(${SECRET_WORD})()(\\s*=\\s*)${VALUE}`, 'gi'),
  new RegExp(`(["'])(${SECRET_WORD})(\\1)(\\s*:\\s*)${VALUE}`, 'gi'),
  new RegExp(`^()(${SECRET_WORD})()([ \\t]*:[ \\t]*)${VALUE}`, 'gim'),
  new RegExp(`()(${SECRET_WORD})()(\\s*:\\s*)("[^"]*"|'[^']*')`, 'gi'),
];

/** Plain text with secrets cut out (see the file comment). */
export function redactText(text: string, ctx: RedactionContext): string {
  let s = text;
  // Longest first, so that a value containing another is replaced whole.
  for (const lit of [...ctx.literals].filter((l) => l.length >= 4).sort((a, b) => b.length - a.length)) {
    s = s.split(lit).join(REDACTED);
  }
  for (const re of NAME_VALUE) {
    s = s.replace(re, (_m, q: string, name: string, q2: string, sep: string, value: string) => {
      const quote = /^["']/.test(value) ? value[0] : '';
      return `${q}${name}${q2}${sep}${quote}${REDACTED}${quote}`;
    });
  }
  s = s.replace(/otpauth:\/\/[^\s"',;}]+/g, REDACTED);
  s = s.replace(/\b(Bearer|Basic)\s+(?!\(redacted\))[A-Za-z0-9._~+/=-]+/g, `$1 ${REDACTED}`);
  // An echoed header block (two or more `Name: value` lines): no header value survives.
  if ((s.match(HEADER_LINE) ?? []).length >= 2) {
    s = s.replace(HEADER_LINE, (line, name: string) => (/^https?$/i.test(name) ? line : `${name}: ${REDACTED}`));
  }
  return s;
}
