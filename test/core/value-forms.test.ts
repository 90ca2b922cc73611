import { formatSeconds, normalDuration } from '../../lib/core/duration';
import { stringSet } from '../../lib/core/string-set';

test('durations: every way of writing the same time reads the same', () => {
  for (const v of ['1h', '60m', '3600', '3600s', '1h0m0s', 3600]) expect(normalDuration(v)).toBe('1h');
  expect(normalDuration('90s')).toBe('1m30s');
  expect(normalDuration(5400)).toBe('1h30m');
  expect(normalDuration('768h')).toBe('768h');
  expect(normalDuration('32d')).toBe('768h');
  expect(normalDuration('0s')).toBe('0s');
  expect(normalDuration(0)).toBe('0s');
  expect(normalDuration('500ms')).toBe('500ms');
  expect(normalDuration('1.5s')).toBe('1.5s');
  expect(normalDuration('1h0m1s')).toBe('1h1s');
  expect(formatSeconds(86400 * 365)).toBe('8760h');
});

test('durations: what is not one is left for validation to refuse', () => {
  expect(normalDuration('soon')).toBe('soon');
  expect(normalDuration(undefined)).toBeUndefined();
  expect(normalDuration(null)).toBeNull();
  expect(normalDuration(-5)).toBe(-5);
});

test('sets: each item once, sorted; references kept after the strings', () => {
  expect(stringSet(['web', 'ops', 'web'])).toEqual(['ops', 'web']);
  expect(stringSet([])).toEqual([]);
  expect(stringSet(undefined)).toEqual([]);
  const ref = { $ref: 'x', attr: 'id' };
  expect(stringSet<unknown>(['b', ref, 'a'])).toEqual(['a', 'b', ref]);
});
