import { isFullTime, type Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { addKeyword } from './internal/schema.js';

/**
 * An RFC 3339 `full-time` as text, offset included (`08:30:00Z`, `23:59:60.5+00:00`). Applies
 * to strings. Schema: `format: 'time'`, which a checker following RFC 3339 §5.6 applies exactly
 * as this constraint does.
 */
export const time: Constraint<string> = constraint({
  name: 'time',
  test: (v: string) => isFullTime(v),
  message: 'must be an RFC 3339 time with offset',
  schema: (s) => addKeyword(s, 'format', 'time'),
});
