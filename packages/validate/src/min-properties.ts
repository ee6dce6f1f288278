import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { raise } from './internal/schema.js';

/**
 * At least `n` keys. Applies to records and objects (counting the decoded value's own keys:
 * exact for `codec.record`, which keeps every key). Schema: `minProperties: n`.
 */
// @__NO_SIDE_EFFECTS__
export function minProperties(n: number): Constraint<Readonly<Record<string, unknown>>> {
  return constraint({
    name: 'minProperties',
    params: { minProperties: n },
    test: (v: Readonly<Record<string, unknown>>) => Object.keys(v).length >= n,
    message: `must have at least ${n} propert${n === 1 ? 'y' : 'ies'}`,
    schema: (s) => raise(s, 'minProperties', n),
  });
}
