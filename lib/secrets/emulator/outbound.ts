/**
 * A JSON call from an engine to another service (the platform or mesh emulator's admin
 * interface). Failures come back as an Error whose message says what the service answered,
 * never the token sent.
 */
export async function callService(url: string, init: { method: string; headers: Record<string, string>; body?: unknown }): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method,
      headers: { 'content-type': 'application/json', ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`${init.method} ${new URL(url).origin}: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
  }
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch { /* plain text answer */ }
  if (!res.ok) {
    const msgs = (parsed as { errors?: unknown[] } | undefined)?.errors;
    const detail = Array.isArray(msgs) ? msgs.map((m) => (typeof m === 'string' ? m : JSON.stringify(m))).join('; ') : String(text).trim();
    throw new Error(`${init.method} ${new URL(url).pathname}: ${res.status} ${detail}`);
  }
  return parsed;
}
