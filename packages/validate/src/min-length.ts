import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';

/** At least `n` characters (UTF-16 code units). Schema: `minLength: n`. */
// @__NO_SIDE_EFFECTS__
export function minLength(n: number): Constraint<string> {
  return constraint({
    name: 'minLength',
    params: { minLength: n },
    test: (v: string) => v.length >= n,
    message: `must have at least ${n} character${n === 1 ? '' : 's'}`,
    schema: { minLength: n },
  });
}
