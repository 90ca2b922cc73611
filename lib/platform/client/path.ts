/**
 * One URL path segment (an organization name, an id): refuses values that would address another
 * object once a server or proxy normalises the URL (empty, `.`, `..`); encodes the rest (`/` as `%2F`).
 */
export function seg(value: string): string {
  if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
    throw new Error(`"${String(value)}" cannot be used as a URL path segment (empty, "." or "..")`);
  }
  return encodeURIComponent(value);
}
