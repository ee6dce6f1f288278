import { Codec, describeType, type DecodeContext, type Invalid } from './codec.js';
import { encodeIssue, mismatch } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';
import { isCalendarDate } from './time.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = `(${MONTHS.join('|')})`;
/** Day of the month, 01 to 31 (which days each month has is checked apart). */
const MDAY = '(0[1-9]|[12]\\d|3[01])';
/** Hour 00–23, minute 00–59, second 00–59: HTTP dates have no leap second. */
const TIME = '([01]\\d|2[0-3]):([0-5]\\d):([0-5]\\d)';
/** IMF-fixdate (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`. */
const IMF_FIXDATE = `${DAY}, ${MDAY} ${MONTH} (\\d{4}) ${TIME} GMT`;
/** The obsolete RFC 850 form: `Sunday, 06-Nov-94 08:49:37 GMT`. */
const RFC850 = `(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), ${MDAY}-${MONTH}-(\\d{2}) ${TIME} GMT`;
/** The obsolete asctime form, in GMT: `Sun Nov  6 08:49:37 1994` (the day is also read as `06`). */
const ASCTIME = `${DAY} ${MONTH} ( [1-9]|0[1-9]|[12]\\d|3[01]) ${TIME} (\\d{4})`;
const IMF_RE = /* @__PURE__ */ new RegExp(`^${IMF_FIXDATE}$`);
const RFC850_RE = /* @__PURE__ */ new RegExp(`^${RFC850}$`);
const ASCTIME_RE = /* @__PURE__ */ new RegExp(`^${ASCTIME}$`);
/** What the schema states: the three forms, with the ranges of their fields. */
const PATTERN = `^(?:${IMF_FIXDATE}|${RFC850}|${ASCTIME})$`.replace(/\((?!\?)/g, '(?:');

/** The instant of a date and time in UTC, or `undefined` when the day is not in the calendar. */
function utc(year: number, month: number, day: number, h: number, m: number, s: number): Date | undefined {
  if (!isCalendarDate(year, month, day)) return undefined;
  const d = new Date(Date.UTC(2000, month - 1, day, h, m, s));
  d.setUTCFullYear(year);
  return d;
}

/**
 * The year of an RFC 850 date's two digits (RFC 9110 §5.6.7): the year with those last digits
 * that is not more than 50 years in the future.
 */
function fullYear(yy: number): number {
  const now = new Date().getUTCFullYear();
  let year = now - (now % 100) + yy;
  if (year > now + 50) year -= 100;
  return year;
}

/**
 * Codec of an HTTP date (RFC 9110 §5.6.7), for headers such as `Last-Modified`, `Expires` or
 * `Retry-After`: decoded as a `Date`, written as an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37
 * GMT`: whole seconds, UTC). Decoding also accepts the obsolete RFC 850 and asctime forms, as the
 * RFC asks of recipients; a day that is not in the calendar (30 February) is refused. The week
 * day is not compared with the date. Encoding checks that the value is a valid `Date` of the
 * years 0000 to 9999.
 *
 * Schema `{ type: 'string', pattern }` (JSON Schema has no format for it): the pattern states
 * the three forms with days 01 to 31 (` 1` to `31` in the asctime form), hours 00 to 23, minutes
 * and seconds 00 to 59. It does not state which days each month has: `Mon, 31 Apr 1994 08:49:37
 * GMT` and `Tue, 29 Feb 2022 08:49:37 GMT` match it, and the decoder refuses them. A pattern
 * cannot say it for the RFC 850 form, whose two-digit year is read relative to the current year.
 */
export class HttpDateCodec extends Codec<Date> {
  readonly kind = 'httpDate';
  protected parse(input: unknown, ctx: DecodeContext): Date | Invalid {
    if (typeof input !== 'string') return ctx.addIssue(`expected an HTTP date string, got ${describeType(input)}`, 'type', input);
    let d: Date | undefined;
    let m = IMF_RE.exec(input);
    if (m !== null) d = utc(Number(m[3]), MONTHS.indexOf(m[2] as string) + 1, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]));
    else if ((m = RFC850_RE.exec(input)) !== null) d = utc(fullYear(Number(m[3])), MONTHS.indexOf(m[2] as string) + 1, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]));
    else if ((m = ASCTIME_RE.exec(input)) !== null) d = utc(Number(m[6]), MONTHS.indexOf(m[1] as string) + 1, Number((m[2] as string).trim()), Number(m[3]), Number(m[4]), Number(m[5]));
    return d ?? ctx.addIssue('expected an HTTP date such as "Sun, 06 Nov 1994 08:49:37 GMT"', 'format', input);
  }
  protected serialize(value: Date): unknown {
    const v: unknown = value;
    if (!(v instanceof Date) || Number.isNaN(v.getTime())) throw mismatch('a valid Date', v);
    const year = v.getUTCFullYear();
    if (year < 0 || year > 9999) throw encodeIssue(`expected a Date of the years 0000 to 9999, got ${v.toISOString()}`, 'format', v);
    return v.toUTCString();
  }
  protected baseSchema(): JsonSchema {
    return { type: 'string', pattern: PATTERN };
  }
}

/** An HTTP-date codec (RFC 9110 §5.6.7): `Date` ↔ `Sun, 06 Nov 1994 08:49:37 GMT`. */
// @__NO_SIDE_EFFECTS__
export function httpDate(): HttpDateCodec {
  return new HttpDateCodec();
}
