import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { addKeyword } from './internal/schema.js';

/** Equal (`===`) to one of `values`. Applies to strings, numbers and booleans. Schema: `enum: values`. */
// @__NO_SIDE_EFFECTS__
export function oneOf<const V extends string | number | boolean>(...values: V[]): Constraint<V> {
  const set = new Set<unknown>(values);
  return constraint({
    name: 'oneOf',
    params: { values },
    test: (v: V) => set.has(v),
    message: `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`,
    schema: (s) => addKeyword(s, 'enum', [...values]),
  });
}
