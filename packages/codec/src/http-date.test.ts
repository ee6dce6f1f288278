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
