import type { Constraint } from '@lib/codec';
import { constraint, type Numeric } from './constraint.js';
import { raise } from './internal/schema.js';

/** Greater than zero. Applies to numbers and `bigint`s. Schema: `exclusiveMinimum: 0` (a number). */
export const positive: Constraint<Numeric> = constraint({
  name: 'positive',
  test: (v: Numeric) => v > 0,
  message: 'must be positive',
  schema: (s) => raise(s, 'exclusiveMinimum', 0),
});
