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
    test: (v: string) => codePoints(v) <= n,
    message: `must have at most ${n} character${n === 1 ? '' : 's'}`,
    schema: (s) => lower(s, 'maxLength', n),
  });
}
