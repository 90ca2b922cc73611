/**
 * Go's `strconv.ParseBool`, which the real services use for boolean query parameters:
 * `1 t T TRUE true True` are true, `0 f F FALSE false False` false, anything else undefined.
 */
export function parseGoBool(s: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return undefined;
}
