import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';

/** At most `n` (inclusive). Schema: `maximum: n`. */
// @__NO_SIDE_EFFECTS__
export function max(n: number): Constraint<number> {
  return constraint({
    name: 'max',
    params: { maximum: n },
    test: (v: number) => v <= n,
    message: `must be at most ${n}`,
    schema: { maximum: n },
  });
}
