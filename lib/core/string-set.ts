/**
 * A list the service treats as a set (policies, roles, allowed names, workspace or project ids),
 * in the one form converge renders, sends and reads it: each item once, sorted. Duplicates are
 * dropped as the service drops them, and the order a user writes or the service answers never
 * shows as a change. Items that are not strings (an unresolved reference) are kept, after the strings.
 */
export function stringSet<T>(list: readonly T[] | undefined | null): T[] {
  if (!Array.isArray(list)) return [];
  const strings = [...new Set(list.filter((x): x is T & string => typeof x === 'string'))].sort();
  return [...strings, ...list.filter((x) => typeof x !== 'string')];
}
