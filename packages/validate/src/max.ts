import type { Constraint } from '@lib/codec';
import { constraint, type Numeric } from './constraint.js';
import { jsonNumber, lower } from './internal/schema.js';

/**
 * At most `n` (inclusive). Applies to numbers and to `bigint`s (`codec.int64()`), compared
 * exactly. Schema: `maximum: n` (the smaller bound wins when combined); a `bigint` bound a JSON
 * number cannot hold exactly is not reflected.
 */
// @__NO_SIDE_EFFECTS__
export function max(n: Numeric): Constraint<Numeric> {
  const json = jsonNumber(n);
  return constraint({
    name: 'max',
    params: { maximum: n },
    test: (v: Numeric) => v <= n,
    message: `must be at most ${n}`,
    ...(json !== undefined && { schema: (s) => lower(s, 'maximum', json) }),
  });
}
