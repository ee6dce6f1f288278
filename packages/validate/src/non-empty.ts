import type { Constraint } from '@lib/codec';
import { constraint, type Lengthy } from './constraint.js';

/**
 * Not empty: a string of at least one character or an array of at least one item.
 * Schema: `minLength: 1` on strings, `minItems: 1` on arrays.
 */
export const nonEmpty: Constraint<Lengthy> = constraint({
  name: 'nonEmpty',
  test: (v: Lengthy) => v.length > 0,
  message: 'must not be empty',
  schema: (s) => (s.type === 'array' ? { ...s, minItems: Math.max(1, s.minItems ?? 0) } : { ...s, minLength: Math.max(1, s.minLength ?? 0) }),
});
