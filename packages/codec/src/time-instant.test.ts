import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DATE_TIME_PATTERN, dateTimeInstant, isCalendarDate, isDateTime } from './time.js';

// The oracle: the regular-expression reading the character parser replaced — the documented
// pattern, then the calendar day and the leap-second rule (second 60 only at 23:59 UTC); the
// instant is what the old decoder computed from the parts.
const PATTERN = new RegExp(DATE_TIME_PATTERN);
const PARTS = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
function isDateTimeByPattern(s: string): boolean {
  const m = PATTERN.test(s) ? PARTS.exec(s) : null;
  if (m === null || !isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) return false;
  if (Number(m[6]) < 60) return true;
  const sign = m[8] === '-' ? -1 : 1;
  const utcMin = Number(m[5]) - Number(m[10] ?? 0) * sign;
  const utcHr = Number(m[4]) - Number(m[9] ?? 0) * sign - (utcMin < 0 ? 1 : 0);
  return (utcHr === 23 || utcHr === -1) && (utcMin === 59 || utcMin === -1);
}
function oracle(s: string): number {
  if (!isDateTimeByPattern(s)) return NaN;
  const m = PARTS.exec(s) as RegExpExecArray;
  const n = (i: number): number => Number(m[i] ?? 0);
  const d = new Date(0);
  d.setUTCFullYear(n(1), n(2) - 1, n(3));
  d.setUTCHours(n(4), n(5), Math.min(n(6), 59), Number(((m[7] ?? '') + '000').slice(0, 3)));
  return d.getTime() - (m[8] === '-' ? -1 : 1) * (n(9) * 60 + n(10)) * 60_000;
}

const pad = (v: number, w: number): string => String(v).padStart(w, '0');
// Date-times near the grammar: each field mostly in range, sometimes just past it, rarely any
// text; each separator mostly right. About one in seven is valid.
const field = (lo: number, hi: number, w: number): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 30, arbitrary: fc.integer({ min: lo, max: hi }).map((v) => pad(v, w)) },
    { weight: 2, arbitrary: fc.constantFrom(lo - 1, hi + 1, 10 ** w - 1).filter((v) => v >= 0).map((v) => pad(v, w)) },
    { weight: 1, arbitrary: fc.string({ maxLength: w + 1 }) },
  );
const sep = (c: string): fc.Arbitrary<string> => fc.oneof({ weight: 30, arbitrary: fc.constant(c) }, { weight: 1, arbitrary: fc.string({ maxLength: 2 }) });
const nearDateTime = fc
  .tuple(
    field(0, 9999, 4),
    sep('-'),
    field(1, 12, 2),
    sep('-'),
    field(1, 31, 2),
    fc.constantFrom('T', 't', 'T', 't', ' ', 'X'),
    field(0, 23, 2),
    sep(':'),
    field(0, 59, 2),
    sep(':'),
    fc.oneof({ weight: 6, arbitrary: field(0, 59, 2) }, { weight: 1, arbitrary: fc.constant('60') }),
    fc.oneof(fc.constant(''), fc.stringMatching(/^\.\d{1,12}$/), fc.constant('.')),
    fc.oneof(fc.constantFrom('Z', 'z', 'ZZ'), fc.tuple(fc.constantFrom('+', '-'), field(0, 23, 2), sep(':'), field(0, 59, 2)).map((p) => p.join(''))),
  )
  .map((parts) => parts.join(''));

describe('dateTimeInstant', () => {
  it('accepts exactly what isDateTime accepts, and names the same instant', () => {
    fc.assert(
      fc.property(nearDateTime, (s) => {
        expect(dateTimeInstant(s)).toBe(oracle(s));
        expect(isDateTime(s)).toBe(isDateTimeByPattern(s));
      }),
      { numRuns: 20_000 },
    );
    // The generator reaches both sides of the grammar.
    const sample = fc.sample(nearDateTime, { numRuns: 2000, seed: 1 });
    const valid = sample.filter((s) => isDateTimeByPattern(s)).length;
    expect(valid).toBeGreaterThan(200);
    expect(valid).toBeLessThan(1700);
  });

  it('agrees on leap seconds, the first and last years, and offsets that cross a day', () => {
    for (const s of [
      '2016-12-31T23:59:60Z',
      '2017-01-01T00:59:60+01:00',
      '2016-12-31T22:59:60-01:00',
      '2016-12-31T23:58:60Z',
      '0000-01-01T00:00:00Z',
      '0000-01-01T00:00:00+23:59',
      '9999-12-31T23:59:59.999999-23:59',
      '2000-02-29T00:00:00.5Z',
      '1900-02-29T00:00:00Z',
      '2024-01-01T00:00:00.Z',
      '2024-01-01T00:00:00Z ',
    ]) {
      expect(dateTimeInstant(s), s).toBe(oracle(s));
    }
    expect(new Date(dateTimeInstant('2024-02-29t14:34:56.7891234+02:00')).toISOString()).toBe('2024-02-29T12:34:56.789Z');
  });
});
