import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { codePoints, raise } from './internal/schema.js';

/**
 * At least `n` characters, counted in Unicode code points as JSON Schema counts them (an emoji
 * is one character). Applies to strings. Schema: `minLength: n` (the larger bound wins when
 * combined).
 */
// @__NO_SIDE_EFFECTS__
export function minLength(n: number): Constraint<string> {
  return constraint({
    name: 'minLength',
    params: { minLength: n },
    // A string has at most v.length code points and at least half as many: count only in between.
    test: (v: string) => v.length >= 2 * n || (v.length >= n && codePoints(v) >= n),
    message: `must have at least ${n} character${n === 1 ? '' : 's'}`,
    schema: (s) => raise(s, 'minLength', n),
  });
}
