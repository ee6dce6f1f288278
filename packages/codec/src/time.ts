import { Codec, describeType, type DecodeContext, type Invalid } from './codec.js';
import { encodeIssue, mismatch } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';

const FULL_DATE_SRC = '\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])';
const FULL_TIME_SRC = '(?:[01]\\d|2[0-3]):[0-5]\\d:(?:[0-5]\\d|60)(?:\\.\\d+)?(?:[Zz]|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)';

/**
 * The RFC 3339 §5.6 `date-time` syntax, as a regular expression source (calendar days and leap
 * seconds are checked apart, see {@link isDateTime}). Schemas carry `format: 'date-time'` alone:
 * a checker that follows RFC 3339 accepts exactly what the decoder does. Add this as a `pattern`
 * yourself for validators that are laxer than RFC 3339 (ajv-formats also accepts a space for
 * `T` and offsets like `+01`).
 */
export const DATE_TIME_PATTERN: string = `^${FULL_DATE_SRC}[Tt]${FULL_TIME_SRC}$`;
/** The RFC 3339 §5.6 `full-time` syntax (with offset), as a regular expression source; see {@link DATE_TIME_PATTERN}. */
export const FULL_TIME_PATTERN: string = `^${FULL_TIME_SRC}$`;

const DATE_TIME_RE = new RegExp(DATE_TIME_PATTERN);
const FULL_TIME_RE = new RegExp(FULL_TIME_PATTERN);
const PARTS = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const TIME_PARTS = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** True when year, month and day name a real Gregorian calendar day. */
export function isCalendarDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] ?? 0;
  return d <= days;
}

/**
 * The leap-second rule of RFC 3339 §5.6 as format checkers apply it: second 60 is allowed only
 * when the time, moved to UTC by its offset, is 23:59.
 */
function leapSecondOk(h: number, mi: number, sec: number, sign: string | undefined, oh: number, om: number): boolean {
  if (sec < 60) return true;
  const s = sign === '-' ? -1 : 1;
  const utcMin = mi - om * s;
  const utcHr = h - oh * s - (utcMin < 0 ? 1 : 0);
  return (utcHr === 23 || utcHr === -1) && (utcMin === 59 || utcMin === -1);
}

/**
 * True when `s` is an RFC 3339 `full-time` with offset (`23:59:60Z`, `08:30:00.5+02:00`):
 * {@link FULL_TIME_PATTERN} plus the leap-second rule. Exactly what JSON Schema
 * `format: 'time'` with that pattern accepts.
 */
export function isFullTime(s: string): boolean {
  if (!FULL_TIME_RE.test(s)) return false;
  const m = TIME_PARTS.exec(s);
  if (m === null) return false;
  return leapSecondOk(Number(m[1]), Number(m[2]), Number(m[3]), m[4], Number(m[5] ?? 0), Number(m[6] ?? 0));
}

/**
 * True when `s` is an RFC 3339 `date-time` (calendar-checked, leap second 60 only at 23:59
 * UTC): exactly what JSON Schema `format: 'date-time'` with {@link DATE_TIME_PATTERN} accepts.
 */
export function isDateTime(s: string): boolean {
  if (!DATE_TIME_RE.test(s)) return false;
  const m = PARTS.exec(s);
  if (m === null || !isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) return false;
  return leapSecondOk(Number(m[4]), Number(m[5]), Number(m[6]), m[8], Number(m[9] ?? 0), Number(m[10] ?? 0));
}

/** The instant an RFC 3339 date-time names (a leap second reads as second 59); `s` must pass {@link isDateTime}. */
function parseDateTime(s: string): Date {
  const m = PARTS.exec(s) as RegExpExecArray;
  const n = (i: number): number => Number(m[i] ?? 0);
  const ms = Number(((m[7] ?? '') + '000').slice(0, 3));
  const d = new Date(0);
  d.setUTCFullYear(n(1), n(2) - 1, n(3));
  d.setUTCHours(n(4), n(5), Math.min(n(6), 59), ms);
  const offset = (m[8] === '-' ? -1 : 1) * (n(9) * 60 + n(10));
  return new Date(d.getTime() - offset * 60_000);
}

/** The first and last instants RFC 3339 can write: 0000-01-01T00:00:00.000Z, 9999-12-31T23:59:59.999Z. */
export const FIRST_INSTANT = -62167219200000;
export const LAST_INSTANT = 253402300799999;

/**
 * `value.toISOString()` after checking that `value` is a valid `Date` of the years 0000 to 9999
 * (what RFC 3339 can write); the encode check of `time()` and `date()`.
 * @throws {EncodeError} for anything else: `expected Date, got string` (constraint `type`),
 * `expected a valid Date, got Invalid Date` (`type`), a year outside 0000–9999 (`format`).
 */
export function isoInstant(value: Date): string {
  if (!(value instanceof Date)) throw mismatch('Date', value);
  const t = value.getTime();
  if (t >= FIRST_INSTANT && t <= LAST_INSTANT) return value.toISOString();
  if (Number.isNaN(t)) throw encodeIssue('expected a valid Date, got Invalid Date', 'type', value);
  throw encodeIssue(`expected a Date of the years 0000 to 9999 (RFC 3339), got ${value.toISOString()}`, 'format', value);
}

/**
 * Codec of an instant; decoded as `Date`. Wire value: an RFC 3339 date-time string, read at
 * millisecond precision (further fraction digits are truncated), written with `toISOString()`
 * (always UTC, `Z`, three fraction digits). Valid values are the instants of the years 0000 to
 * 9999 that RFC 3339 can write. Schema `{ type: 'string', format: 'date-time' }` (see
 * {@link DATE_TIME_PATTERN}). Encoding checks that the value is a valid `Date` (not an Invalid
 * Date) of those years.
 */
export class TimeCodec extends Codec<Date> {
  readonly kind = 'time';
  protected parse(input: unknown, ctx: DecodeContext): Date | Invalid {
    if (typeof input !== 'string') return ctx.addIssue(`expected date-time string, got ${describeType(input)}`, 'type', input);
    if (!isDateTime(input)) return ctx.addIssue('expected an RFC 3339 date-time', 'format', input);
    return parseDateTime(input);
  }
  protected serialize(value: Date): unknown {
    return isoInstant(value);
  }
  protected baseSchema(): JsonSchema {
    return { type: 'string', format: 'date-time' };
  }
}

/** An instant codec: `Date` ↔ RFC 3339 date-time string. */
// @__NO_SIDE_EFFECTS__
export function time(): TimeCodec {
  return new TimeCodec();
}
