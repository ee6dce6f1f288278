import type { Constraint } from '@lib/codec';
import { constraint, type Numeric } from './constraint.js';
import { jsonNumber, raise } from './internal/schema.js';

/**
 * At least `n` (inclusive). Applies to numbers and to `bigint`s (`codec.int64()`), compared
 * exactly (`validate.min(0n)` or `validate.min(0)`). Schema: `minimum: n` (the larger bound
 * wins when combined); a `bigint` bound a JSON number cannot hold exactly is not reflected.
 */
// @__NO_SIDE_EFFECTS__
export function min(n: Numeric): Constraint<Numeric> {
  const json = jsonNumber(n);
  return constraint({
    name: 'min',
    params: { minimum: n },
    test: (v: Numeric) => v >= n,
    message: `must be at least ${n}`,
    ...(json !== undefined && { schema: (s) => raise(s, 'minimum', json) }),
  });
}
