import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as codec from './index.js';

describe('httpDate', () => {
  const c = codec.httpDate();
  it('writes an IMF-fixdate and reads it and the obsolete forms back (RFC 9110 §5.6.7)', () => {
    const d = new Date('1994-11-06T08:49:37.250Z');
    expect(c.encode(d)).toBe('Sun, 06 Nov 1994 08:49:37 GMT');
    expect(c.decode('Sun, 06 Nov 1994 08:49:37 GMT').toISOString()).toBe('1994-11-06T08:49:37.000Z');
    expect(c.decode('Sunday, 06-Nov-94 08:49:37 GMT').toISOString()).toBe('1994-11-06T08:49:37.000Z');
    expect(c.decode('Sun Nov  6 08:49:37 1994').toISOString()).toBe('1994-11-06T08:49:37.000Z');
    expect(c.schema).toMatchObject({ type: 'string', pattern: expect.stringMatching(/^\^/) });
  });
  it('refuses what is not an HTTP date, and encodes only valid dates', () => {
    expect(() => c.decode('1994-11-06T08:49:37Z')).toThrow(/expected an HTTP date/);
    expect(() => c.decode(784111777)).toThrow(/expected an HTTP date string, got number/);
    expect(() => c.encode(new Date(NaN))).toThrow(codec.EncodeError);
    expect(() => c.encode(new Date('+010000-01-01T00:00:00Z'))).toThrow(codec.EncodeError);
    // Days not in the calendar, and what Date.parse would misread, are refused or read exactly.
    expect(() => c.decode('Mon, 30 Feb 1994 08:49:37 GMT')).toThrow(/expected an HTTP date/);
    expect(() => c.decode('Sun, 06 Nov 1994 23:59:60 GMT')).toThrow(/expected an HTTP date/);
    expect(c.decode('Sat, 01 Jan 0050 00:00:00 GMT').toISOString()).toBe('0050-01-01T00:00:00.000Z');
    expect(c.encode(new Date('0050-01-01T00:00:00Z'))).toBe('Sat, 01 Jan 0050 00:00:00 GMT');
  });
});

describe('httpDate schema', () => {
  const c = codec.httpDate();
  const pattern = new RegExp(c.schema.pattern as string);
  const decodes = (s: string): boolean => {
    try {
      c.decode(s);
      return true;
    } catch (err) {
      if (err instanceof codec.DecodeError) return false;
      throw err;
    }
  };
  const pad = (n: number): string => String(n).padStart(2, '0');
  const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

  it('states the days, hours, minutes and seconds the decoder reads', () => {
    for (const bad of [
      'Tue, 32 Oct 1938 08:49:37 GMT',
      'Tue, 00 Oct 1938 08:49:37 GMT',
      'Tue, 39 Oct 1938 08:49:37 GMT',
      'Tuesday, 32-Oct-38 08:49:37 GMT',
      'Tuesday, 00-Oct-38 08:49:37 GMT',
      'Tue Oct 32 08:49:37 1938',
      'Tue Oct  0 08:49:37 1938',
      'Tue Oct 00 08:49:37 1938',
      'Tue, 25 Oct 1938 24:00:00 GMT',
      'Tue, 25 Oct 1938 08:60:00 GMT',
      'Tue, 25 Oct 1938 08:49:60 GMT',
    ]) {
      expect(pattern.test(bad), bad).toBe(false);
      expect(decodes(bad), bad).toBe(false);
    }
    for (const good of ['Mon, 31 Oct 1938 23:59:59 GMT', 'Monday, 01-Oct-38 00:00:00 GMT', 'Mon Oct  1 08:49:37 1938', 'Mon Oct 01 08:49:37 1938', 'Mon Oct 31 08:49:37 1938']) {
      expect(pattern.test(good), good).toBe(true);
      expect(decodes(good), good).toBe(true);
    }
  });

  it('accepts what the decoder accepts, and more only for days past the end of their month', () => {
    const field = fc.integer({ min: 0, max: 99 });
    const text = fc
      .tuple(fc.constantFrom('imf', 'rfc850', 'asctime'), field, fc.integer({ min: 0, max: 11 }), fc.constantFrom(1900, 1994, 2000, 2023, 2024, 2100), field, field, field, fc.boolean())
      .map(([form, day, month, year, h, m, s, spaced]) => {
        const mon = MONTHS[month] as string;
        const time = `${pad(h)}:${pad(m)}:${pad(s)}`;
        if (form === 'imf') return { day, month, year, text: `Sun, ${pad(day)} ${mon} ${year} ${time} GMT` };
        if (form === 'rfc850') return { day, month, year: undefined, text: `Sunday, ${pad(day)}-${mon}-${pad(year % 100)} ${time} GMT` };
        const dd = spaced && day < 10 ? ` ${day}` : pad(day);
        return { day, month, year, text: `Sun ${mon} ${dd} ${time} ${year}` };
      });
    fc.assert(
      fc.property(text, ({ day, month, year, text: s }) => {
        const bySchema = pattern.test(s);
        const byDecoder = decodes(s);
        if (byDecoder) expect(bySchema, s).toBe(true);
        else if (bySchema) {
          // What a pattern does not say: which days each month has (30 February, 31 April).
          expect(day, s).toBeGreaterThanOrEqual(29);
          expect(day, s).toBeLessThanOrEqual(31);
          if (year !== undefined) expect(codec.isCalendarDate(year, month + 1, day), s).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
