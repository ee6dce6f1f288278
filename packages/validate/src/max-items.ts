import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { lower } from './internal/schema.js';

/** At most `n` items. Applies to arrays. Schema: `maxItems: n` (the smaller bound wins). */
// @__NO_SIDE_EFFECTS__
export function maxItems(n: number): Constraint<readonly unknown[]> {
  return constraint({
    name: 'maxItems',
    params: { maxItems: n },
    test: (v: readonly unknown[]) => v.length <= n,
    message: `must have at most ${n} item${n === 1 ? '' : 's'}`,
    schema: (s) => lower(s, 'maxItems', n),
  });
}
