import { deepEqual, type Constraint } from '@lib/codec';
import { constraint } from './constraint.js';

/** True when no two items of `v` are structurally equal. */
function unique(v: readonly unknown[]): boolean {
  const seen = new Set<unknown>();
  const structured: unknown[] = [];
  for (const item of v) {
    if (typeof item !== 'object' || item === null) {
      // SameValueZero: 0 and -0 are one JSON number.
      if (seen.has(item)) return false;
      seen.add(item);
    } else {
      if (structured.some((o) => deepEqual(o, item))) return false;
      structured.push(item);
    }
  }
  return true;
}

/**
 * No two items equal. Applies to arrays. Items are compared as decoded values, structurally
 * (`Date`s by instant, objects by keys and values). Schema: `uniqueItems: true`, which compares
 * wire values: the two agree when each item's decoding is one-to-one (strings, numbers,
 * literals, strict objects of such); items whose codec drops information (unknown keys of a
 * stripping object, several texts of one instant) can be distinct on the wire yet equal here.
 */
export const uniqueItems: Constraint<readonly unknown[]> = constraint({
  name: 'uniqueItems',
  test: unique,
  message: 'must not contain duplicate items',
  schema: { uniqueItems: true },
});
