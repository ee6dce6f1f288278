import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';

/** At least `n` (inclusive). Schema: `minimum: n`. */
// @__NO_SIDE_EFFECTS__
export function min(n: number): Constraint<number> {
  return constraint({
    name: 'min',
    params: { minimum: n },
    test: (v: number) => v >= n,
    message: `must be at least ${n}`,
    schema: { minimum: n },
  });
}
