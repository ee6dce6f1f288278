import { Codec, describeType, type DecodeContext, type Invalid } from './codec.js';
import type { JsonSchema } from './json-schema.js';

/** RFC 3339 `date-time` (JSON Schema `format: date-time`): date, `T`, time, fraction, offset. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** True when `s` is a valid RFC 3339 date-time (calendar-checked, leap second 60 allowed at 23:59). */
export function isDateTime(s: string): boolean {
  const m = DATE_TIME.exec(s);
  if (m === null) return false;
  const [, y, mo, d, h, mi, sec, , off] = m;
  if (!isCalendarDate(Number(y), Number(mo), Number(d))) return false;
  if (Number(h) > 23 || Number(mi) > 59 || Number(sec) > 60) return false;
  if (off !== undefined && off.length === 6 && (Number(off.slice(1, 3)) > 23 || Number(off.slice(4)) > 59)) return false;
  if (Number(sec) === 60 && !(Number(h) === 23 && Number(mi) === 59) && off?.toUpperCase() === 'Z') return false;
  return true;
}

/** True when year, month and day name a real Gregorian calendar day. */
export function isCalendarDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] ?? 0;
  return d <= days;
}

/**
 * Codec of an instant; decoded as `Date`, wire value: an RFC 3339 string (encoded with
 * `toISOString()`, always UTC, millisecond precision); schema `{ type: 'string', format: 'date-time' }`.
 */
export class TimeCodec extends Codec<Date> {
  readonly kind = 'time';
  protected parse(input: unknown, ctx: DecodeContext): Date | Invalid {
    if (typeof input !== 'string') return ctx.addIssue(`expected date-time string, got ${describeType(input)}`, 'type', input);
    if (!isDateTime(input)) return ctx.addIssue('expected an RFC 3339 date-time', 'format', input);
    const d = new Date(input.replace(/:60(\.\d+)?([Zz]|[+-])/, ':59$1$2'));
    return Number.isNaN(d.getTime()) ? ctx.addIssue('expected an RFC 3339 date-time', 'format', input) : d;
  }
  protected serialize(value: Date): unknown {
    return value.toISOString();
  }
  protected baseSchema(): JsonSchema {
    return { type: 'string', format: 'date-time' };
  }
}

/** An instant codec (SPEC.md `codec.Time`): `Date` ↔ RFC 3339 date-time string. */
// @__NO_SIDE_EFFECTS__
export function time(): TimeCodec {
  return new TimeCodec();
}
