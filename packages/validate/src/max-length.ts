import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { codePoints, lower } from './internal/schema.js';

/**
 * At most `n` characters, counted in Unicode code points as JSON Schema counts them. Applies to
 * strings. Schema: `maxLength: n` (the smaller bound wins when combined).
 */
// @__NO_SIDE_EFFECTS__
export function maxLength(n: number): Constraint<string> {
  return constraint({
    name: 'maxLength',
    params: { maxLength: n },
    // A string has at most v.length code points and at least half as many: count only in between.
    test: (v: string) => v.length <= n || (v.length <= 2 * n && codePoints(v) <= n),
    message: `must have at most ${n} character${n === 1 ? '' : 's'}`,
    schema: (s) => lower(s, 'maxLength', n),
  });
}
