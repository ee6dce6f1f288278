import { isCalendarDate, type Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { FULL_DATE } from './internal/formats.js';
import { addKeyword } from './internal/schema.js';

/**
 * A calendar date as text, RFC 3339 `full-date` (`2024-02-29`, a real day). Applies to strings
 * (`codec.date()` decodes the same text to a `Date`). Schema: `format: 'date'`.
 */
export const date: Constraint<string> = constraint({
  name: 'date',
  test: (v: string) => {
    const m = FULL_DATE.exec(v);
    return m !== null && isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
  },
  message: 'must be a date as YYYY-MM-DD',
  schema: (s) => addKeyword(s, 'format', 'date'),
});
