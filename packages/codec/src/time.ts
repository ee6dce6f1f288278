import { Codec, describeType, type DecodeContext, type Invalid } from './codec.js';
import { encodeIssue, mismatch } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';

// The patterns below are written out whole (full-date, "T", full-time), not built from shared
// pieces: plain string constants are left out of a bundle that does not use them.

/**
 * The RFC 3339 §5.6 `date-time` syntax, as a regular expression source (calendar days and leap
 * seconds are checked apart, see {@link isDateTime}). Schemas carry `format: 'date-time'` alone:
 * a checker that follows RFC 3339 accepts exactly the texts the decoder does (the decoder also
 * refuses the few whose offset moves them out of the years 0000 to 9999). Add this as a `pattern`
 * yourself for validators that are laxer than RFC 3339 (ajv-formats also accepts a space for
 * `T` and offsets like `+01`).
 */
export const DATE_TIME_PATTERN: string = '^\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])[Tt](?:[01]\\d|2[0-3]):[0-5]\\d:(?:[0-5]\\d|60)(?:\\.\\d+)?(?:[Zz]|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)$';
/** The RFC 3339 §5.6 `full-time` syntax (with offset), as a regular expression source; see {@link DATE_TIME_PATTERN}. */
export const FULL_TIME_PATTERN: string = '^(?:[01]\\d|2[0-3]):[0-5]\\d:(?:[0-5]\\d|60)(?:\\.\\d+)?(?:[Zz]|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)$';

const FULL_TIME_RE = /* @__PURE__ */ new RegExp(FULL_TIME_PATTERN);
const TIME_PARTS = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** True when year, month and day name a real Gregorian calendar day. */
export function isCalendarDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  if (m !== 2) return d <= (DAYS_IN_MONTH[m - 1] as number);
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= (leap ? 29 : 28);
}
/** Days of each month of a common year. */
const DAYS_IN_MONTH: readonly number[] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

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
  // Read character by character, which accepts exactly what the pattern and the calendar and
  // leap-second rules accept (a property test compares them).
  return readDateTime(s);
}

/** The two ASCII digits of `s` at `i` as a number, or -1. */
function twoDigits(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/** Days from 1970-01-01 to a proleptic Gregorian date, any year (H. Hinnant's `days_from_civil`). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

/**
 * The instant (milliseconds since the epoch) an RFC 3339 date-time names, read character by
 * character; `NaN` for any text {@link isDateTime} refuses. A leap second reads as second 59;
 * fraction digits past the millisecond are dropped. The instant may lie a little outside the
 * years 0000 to 9999 when an offset moves it there (`0000-01-01T00:00:00+00:01`): the text is
 * still a date-time, and `codec.time()`, which decodes with this (about ten times faster than
 * matching the regular expressions), refuses those instants itself.
 */
export function dateTimeInstant(s: string): number {
  if (!readDateTime(s)) return NaN;
  const f = FIELDS;
  return (daysFromCivil(f[0], f[1], f[2]) * 86_400 + f[3] * 3600 + f[4] * 60 + Math.min(f[5], 59)) * 1000 + f[6] - f[7] * 60_000;
}

/**
 * What {@link readDateTime} read last: year, month, day, hour, minute, second, millisecond, and
 * the offset east of UTC in minutes. Reused by every call (they run to the end synchronously).
 */
const FIELDS: [number, number, number, number, number, number, number, number] = [0, 0, 0, 0, 0, 0, 0, 0];

/** Reads an RFC 3339 date-time character by character into {@link FIELDS}; false for any text {@link isDateTime} refuses. */
function readDateTime(s: string): boolean {
  const y1 = twoDigits(s, 0);
  const y2 = twoDigits(s, 2);
  const mo = twoDigits(s, 5);
  const d = twoDigits(s, 8);
  const h = twoDigits(s, 11);
  const mi = twoDigits(s, 14);
  const sec = twoDigits(s, 17);
  // '-' 45, ':' 58, 'T' | 32 and 't' are 116.
  if (y1 < 0 || y2 < 0 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || (s.charCodeAt(10) | 32) !== 116 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return false;
  const y = y1 * 100 + y2;
  if (!isCalendarDate(y, mo, d) || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 60) return false;
  let i = 19;
  let ms = 0;
  if (s.charCodeAt(i) === 46) {
    // '.' and at least one digit; the first three make the milliseconds.
    let n = 0;
    for (i++; i < s.length; i++, n++) {
      const c = s.charCodeAt(i) - 48;
      if (c < 0 || c > 9) break;
      if (n < 3) ms = ms * 10 + c;
    }
    if (n === 0) return false;
    if (n < 3) ms *= n === 1 ? 100 : 10;
  }
  const z = s.charCodeAt(i);
  let oh = 0;
  let om = 0;
  if ((z | 32) === 122) {
    // 'Z' or 'z', last.
    if (i + 1 !== s.length) return false;
  } else if (z === 43 || z === 45) {
    // '+' or '-' HH:MM, last.
    oh = twoDigits(s, i + 1);
    om = twoDigits(s, i + 4);
    if (i + 6 !== s.length || s.charCodeAt(i + 3) !== 58 || oh < 0 || oh > 23 || om < 0 || om > 59) return false;
  } else return false;
  if (!leapSecondOk(h, mi, sec, z === 45 ? '-' : '+', oh, om)) return false;
  const f = FIELDS;
  f[0] = y;
  f[1] = mo;
  f[2] = d;
  f[3] = h;
  f[4] = mi;
  f[5] = sec;
  f[6] = ms;
  f[7] = (z === 45 ? -1 : 1) * (oh * 60 + om);
  return true;
}

/** The first and last instants RFC 3339 can write: 0000-01-01T00:00:00.000Z, 9999-12-31T23:59:59.999Z. */
export const FIRST_INSTANT = -62167219200000;
export const LAST_INSTANT = 253402300799999;

/** `00` … `99`. */
const TWO_DIGITS = /* @__PURE__ */ Array.from({ length: 100 }, (_, i) => (i < 10 ? `0${i}` : `${i}`));
/** `000` … `999`. */
const THREE_DIGITS = /* @__PURE__ */ Array.from({ length: 1000 }, (_, i) => (i < 10 ? `00${i}` : i < 100 ? `0${i}` : `${i}`));

/**
 * `new Date(t).toISOString()` for an instant `t` (milliseconds since the epoch) of the years
 * 0000–9999 (the time codec's range), written by H. Hinnant's `civil_from_days` (the inverse of
 * {@link daysFromCivil}): the same text, about four times faster than the engine's
 * `toISOString`, and a quarter faster than reading the seven `getUTC*` fields. Internal.
 */
export function instantText(t: number): string {
  const days = Math.floor(t / 86400000);
  const msOfDay = t - days * 86400000;
  const era = Math.floor((days + 719468) / 146097);
  const doe = days + 719468 - era * 146097; // day of the 400-year era, 0 … 146096
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100)); // from 1 March
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const s = Math.floor(msOfDay / 1000);
  const h = Math.floor(s / 3600);
  const mi = Math.floor((s - h * 3600) / 60);
  return (
    (y < 1000 ? String(y).padStart(4, '0') : String(y)) +
    '-' + TWO_DIGITS[month] + '-' + TWO_DIGITS[doy - Math.floor((153 * mp + 2) / 5) + 1] +
    'T' + TWO_DIGITS[h] + ':' + TWO_DIGITS[mi] + ':' + TWO_DIGITS[s - h * 3600 - mi * 60] +
    '.' + THREE_DIGITS[msOfDay - s * 1000] + 'Z'
  );
}

/**
 * `value.toISOString()` after checking that `value` is a valid `Date` of the years 0000 to 9999
 * (what RFC 3339 can write), written by {@link instantText}; the encode check of `time()` and `date()`.
 * @throws {EncodeError} for anything else: `expected Date, got string` (constraint `type`),
 * `expected a valid Date, got Invalid Date` (`type`), a year outside 0000–9999 (`format`).
 */
export function isoInstant(value: Date): string {
  if (!(value instanceof Date)) throw mismatch('Date', value);
  const t = value.getTime();
  if (t >= FIRST_INSTANT && t <= LAST_INSTANT) return instantText(t);
  if (Number.isNaN(t)) throw encodeIssue('expected a valid Date, got Invalid Date', 'type', value);
  throw encodeIssue(`expected a Date of the years 0000 to 9999 (RFC 3339), got ${value.toISOString()}`, 'format', value);
}

/**
 * Codec of an instant; decoded as `Date`. Wire value: an RFC 3339 date-time string, read at
 * millisecond precision (further fraction digits are truncated), written with `toISOString()`
 * (always UTC, `Z`, three fraction digits). Valid values are the instants of the years 0000 to
 * 9999 (UTC) that RFC 3339 can write. Encoding checks that the value is a valid `Date` (not an
 * Invalid Date) of those years; decoding refuses, with constraint `format` as encoding does, a
 * date-time whose offset moves it out of them (`0000-01-01T00:00:00+00:01` is a minute before
 * the year 0000, `9999-12-31T23:59:59-00:01` in the year 10000).
 *
 * Schema `{ type: 'string', format: 'date-time' }` (see {@link DATE_TIME_PATTERN}). The format
 * checks the text, not the instant: those few date-times of 0000-01-01 and 9999-12-31 match it
 * and are refused by the decoder.
 */
export class TimeCodec extends Codec<Date> {
  readonly kind = 'time';
  protected parse(input: unknown, ctx: DecodeContext): Date | Invalid {
    if (typeof input !== 'string') return ctx.addIssue(`expected date-time string, got ${describeType(input)}`, 'type', input);
    const t = dateTimeInstant(input);
    if (t !== t) return ctx.addIssue('expected an RFC 3339 date-time', 'format', input); // NaN
    if (t < FIRST_INSTANT || t > LAST_INSTANT) {
      // An offset moved the instant out of the years RFC 3339 can write in UTC (what encode writes).
      return ctx.addIssue(`expected an instant of the years 0000 to 9999 (RFC 3339), got ${new Date(t).toISOString()}`, 'format', input);
    }
    return new Date(t);
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
