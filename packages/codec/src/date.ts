import { Codec, describeType, type DecodeContext, type Invalid } from './codec.js';
import type { JsonSchema } from './json-schema.js';
import { isCalendarDate, isoInstant } from './time.js';

const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Codec of a calendar date; decoded as a `Date` at 00:00 UTC of that day, wire value:
 * `YYYY-MM-DD` (RFC 3339 full-date); schema `{ type: 'string', format: 'date' }`. Encoding
 * writes the UTC day of the `Date`, after checking that the value is a valid `Date` (not an
 * Invalid Date) of the years 0000 to 9999.
 */
export class DateCodec extends Codec<Date> {
  readonly kind = 'date';
  protected parse(input: unknown, ctx: DecodeContext): Date | Invalid {
    if (typeof input !== 'string') return ctx.addIssue(`expected date string, got ${describeType(input)}`, 'type', input);
    const m = FULL_DATE.exec(input);
    if (m === null || !isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) {
      return ctx.addIssue('expected a date as YYYY-MM-DD', 'format', input);
    }
    return new Date(`${input}T00:00:00.000Z`);
  }
  protected serialize(value: Date): unknown {
    return isoInstant(value).slice(0, 10);
  }
  protected baseSchema(): JsonSchema {
    return { type: 'string', format: 'date' };
  }
}

/** A calendar-date codec: `Date` (UTC midnight) ↔ `YYYY-MM-DD`. */
// @__NO_SIDE_EFFECTS__
export function date(): DateCodec {
  return new DateCodec();
}
