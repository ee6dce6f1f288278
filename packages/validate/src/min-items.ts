import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { raise } from './internal/schema.js';

/** At least `n` items. Applies to arrays. Schema: `minItems: n` (the larger bound wins). */
// @__NO_SIDE_EFFECTS__
export function minItems(n: number): Constraint<readonly unknown[]> {
  return constraint({
    name: 'minItems',
    params: { minItems: n },
    test: (v: readonly unknown[]) => v.length >= n,
    message: `must have at least ${n} item${n === 1 ? '' : 's'}`,
    schema: (s) => raise(s, 'minItems', n),
  });
}
