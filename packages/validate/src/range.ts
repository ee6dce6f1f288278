import type { Constraint } from '@lib/codec';
import { constraint, type Numeric } from './constraint.js';
import { jsonNumber, lower, raise } from './internal/schema.js';

/**
 * From `lo` to `hi`, both inclusive. Applies to numbers and `bigint`s. Schema: `minimum: lo`,
 * `maximum: hi` (each only when a JSON number holds it exactly).
 * @throws {RangeError} when `lo > hi`.
 */
// @__NO_SIDE_EFFECTS__
export function range(lo: Numeric, hi: Numeric): Constraint<Numeric> {
  if (lo > hi) throw new RangeError(`range(${lo}, ${hi}): the lower bound exceeds the upper bound`);
  const jlo = jsonNumber(lo);
  const jhi = jsonNumber(hi);
  return constraint({
    name: 'range',
    params: { minimum: lo, maximum: hi },
    test: (v: Numeric) => v >= lo && v <= hi,
    message: `must be from ${lo} to ${hi}`,
    schema: (s) => {
      let out = s;
      if (jlo !== undefined) out = raise(out, 'minimum', jlo);
      if (jhi !== undefined) out = lower(out, 'maximum', jhi);
      return out;
    },
  });
}
