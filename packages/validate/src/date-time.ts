import { isDateTime, type Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { addKeyword } from './internal/schema.js';

/**
 * An RFC 3339 `date-time` as text (`2024-02-29T12:00:00Z`, `…+02:00`; `T` and `Z` in either
 * case; a real day; second 60 only at 23:59 UTC). Applies to strings (`codec.time()` decodes
 * the same text to a `Date`). Schema: `format: 'date-time'`, which a checker following
 * RFC 3339 §5.6 applies exactly as this constraint does.
 */
export const dateTime: Constraint<string> = constraint({
  name: 'dateTime',
  test: (v: string) => isDateTime(v),
  message: 'must be an RFC 3339 date-time',
  schema: (s) => addKeyword(s, 'format', 'date-time'),
});
