import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';

/** At most `n` characters (UTF-16 code units). Schema: `maxLength: n`. */
// @__NO_SIDE_EFFECTS__
export function maxLength(n: number): Constraint<string> {
  return constraint({
    name: 'maxLength',
    params: { maxLength: n },
    test: (v: string) => v.length <= n,
    message: `must have at most ${n} character${n === 1 ? '' : 's'}`,
    schema: { maxLength: n },
  });
}
