import type { Constraint } from '@lib/codec';
import { constraint, type Numeric } from './constraint.js';
import { lower } from './internal/schema.js';

/** Less than zero. Applies to numbers and `bigint`s. Schema: `exclusiveMaximum: 0` (a number). */
export const negative: Constraint<Numeric> = constraint({
  name: 'negative',
  test: (v: Numeric) => v < 0,
  message: 'must be negative',
  schema: (s) => lower(s, 'exclusiveMaximum', 0),
});
