import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { lower } from './internal/schema.js';

/**
 * At most `n` keys. Applies to records and objects (counting the decoded value's own keys:
 * exact for `codec.record`; a stripping `object` counts declared keys only). Schema:
 * `maxProperties: n`.
 */
// @__NO_SIDE_EFFECTS__
export function maxProperties(n: number): Constraint<Readonly<Record<string, unknown>>> {
  return constraint({
    name: 'maxProperties',
    params: { maxProperties: n },
    test: (v: Readonly<Record<string, unknown>>) => Object.keys(v).length <= n,
    message: `must have at most ${n} propert${n === 1 ? 'y' : 'ies'}`,
    schema: (s) => lower(s, 'maxProperties', n),
  });
}
