/**
 * The value generators the kinds' `props` samples share (test/<domain>/<family>/<family>.samples.ts):
 * names, durations and references a construct must refuse.
 */
import * as platform from '../../lib/platform';
import fc from 'fast-check';

/**
 * Valid and invalid props of every construct kind, for the property-based tests. A generic driver
 * cannot know what a construct accepts: every registered kind needs the `props` of its entry in its
 * family's samples file (test/support/samples.ts); test/reliability/construct-props.test.ts fails for
 * a kind without one.
 */
export interface KindProps {
  /** The smallest valid props: the required fields. Removing any of them must fail. */
  readonly base: Record<string, unknown>;
  /** Valid values of optional fields (random subsets are added to `base`). */
  readonly optional?: Record<string, unknown>;
  /** Valid values generated for fields (overriding `base`/`optional`). */
  readonly valid?: Record<string, fc.Arbitrary<unknown>>;
  /** Invalid values of fields, beyond the generic ones (wrong types, empty required strings). */
  readonly invalid?: Record<string, fc.Arbitrary<unknown>>;
  /**
   * Known gaps: `field` or `field:rule` the construct does not refuse yet. Their properties run as
   * `test.failing`, so a fix makes the test fail until the gap is removed here.
   */
  readonly gaps?: string[];
  /**
   * Further valid props that set sensitive inputs `base`/`optional` cannot set together (mutually
   * exclusive secrets): the secret hygiene test plants values in these too.
   */
  readonly secretVariants?: Record<string, unknown>[];
}

/** An organization the platform constructs reference (any IOrganization: here a plain object, no construct). */
export const ACME: platform.IOrganization = { organizationName: 'acme', organizationExternalId: 'org-acme' };

/** An organization reference whose name is any of `names`. */
export const orgNamed = (names: fc.Arbitrary<string>) => names.map((organizationName): platform.IOrganization => ({ organizationName, organizationExternalId: 'org-x' }));

/** A name a name-like field must refuse: spaces, slashes, traversal, unicode, control characters. */
export const badName = fc.tuple(
  fc.stringMatching(/^[a-z0-9]{0,8}$/),
  fc.constantFrom(' ', '/', '../', '%2F', 'é', '名', '\u0000', '\n', '💥', '?', '#', '.'),
  fc.stringMatching(/^[a-z0-9]{0,8}$/),
).map(([a, b, c]) => a + b + c);

/**
 * A name the secrets service cannot take as one path segment. Its names may hold `.` inside (`db.prod`),
 * so `.` is tried alone, doubled and at either end instead of between other characters.
 */
export const badSegmentName = fc.oneof(
  badName.filter((n) => !/^[a-z0-9]+\.[a-z0-9]+$/.test(n)),
  fc.constantFrom('.', '..', '.a', 'a.', '-a', 'a-', 'a b', 'a%2Fb', 'ü'),
);

export const goodName = fc.stringMatching(/^[a-z][a-z0-9_-]{0,30}$/);

export const badDuration = fc.constantFrom('abc', '10x', '-5s', '1h-', 's', ' 10s', '10 s', '1.5.5s', '∞');

export const notEnum = fc.stringMatching(/^[A-Z][a-z]{1,8}$/).map((s) => `not-${s}`);

/** Names the mesh API cannot address in its URL paths. */
export const badMeshName = fc.oneof(fc.constantFrom('.', '..', '/x', 'x/'), fc.tuple(goodName, goodName).map(([a, b]) => `${a}/${b}`));
