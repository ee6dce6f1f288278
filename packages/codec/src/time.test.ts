import { describe, expect, it } from 'vitest';
import * as codec from './index.js';

describe('time', () => {
  const t = codec.time();
  it('reads RFC 3339 date-times with offsets, lower-case letters and long fractions', () => {
    expect(t.decode('2024-02-29T12:34:56.789Z').toISOString()).toBe('2024-02-29T12:34:56.789Z');
    expect(t.decode('2024-02-29t14:34:56.7891234+02:00').toISOString()).toBe('2024-02-29T12:34:56.789Z');
    expect(t.decode('0000-01-01T00:00:00z').toISOString()).toBe('0000-01-01T00:00:00.000Z');
    expect(t.decode('2016-12-31T23:59:60Z').toISOString()).toBe('2016-12-31T23:59:59.000Z');
    expect(t.decode('2017-01-01T00:59:60+01:00').toISOString()).toBe('2016-12-31T23:59:59.000Z');
  });

  it('refuses what RFC 3339 does not allow, though lax format checkers do', () => {
    for (const bad of [
      '2024-02-29 12:00:00Z', // space separator
      '2024-02-29T12:00:00+01', // offset without minutes
      '2024-02-29T12:00:00+0100', // offset without colon
      '2024-02-29T12:00:00', // no offset
      '2023-02-29T12:00:00Z', // not a day
      '2024-02-29T24:00:00Z',
      '2024-02-29T12:00:60Z', // leap second not at 23:59 UTC
      '2024-02-29T12:00:00.Z',
    ]) {
      expect(() => t.decode(bad), bad).toThrow(expect.objectContaining({ issues: [expect.objectContaining({ constraint: 'format', value: bad })] }));
    }
    expect(codec.isDateTime('2024-02-29T12:00:00Z')).toBe(true);
  });

  it('states its syntax by the format alone', () => {
    expect(t.schema).toEqual({ type: 'string', format: 'date-time' });
    expect(codec.isFullTime('23:59:60.5+00:00')).toBe(true);
    expect(codec.isFullTime('23:59:60+01:00')).toBe(false);
  });
});

describe('date', () => {
  it('reads full-dates to UTC midnight and writes the UTC day', () => {
    const d = codec.date();
    expect(d.decode('2024-02-29').toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(d.encode(new Date('2024-03-01T23:59:59Z'))).toBe('2024-03-01');
    for (const bad of ['2023-02-29', '2024-13-01', '2024-1-01', '2024-01-01T00:00:00Z']) expect(() => d.decode(bad), bad).toThrow(codec.DecodeError);
    expect(d.schema).toEqual({ type: 'string', format: 'date' });
  });
});

describe('duration', () => {
  const d = codec.duration();
  it('reads weeks, days, hours, minutes and seconds as milliseconds', () => {
    expect(d.decode('PT0S')).toBe(0);
    expect(d.decode('P2W')).toBe(14 * 86_400_000);
    expect(d.decode('P1DT2H3M4S')).toBe(86_400_000 + 2 * 3_600_000 + 3 * 60_000 + 4000);
    expect(d.decode('PT90S')).toBe(90_000);
  });

  it('writes days, hours, minutes and seconds', () => {
    expect(d.encode(0)).toBe('PT0S');
    expect(d.encode(90_000)).toBe('PT1M30S');
    expect(d.encode(86_400_000 + 1000)).toBe('P1DT1S');
    expect(d.encode(2 * 86_400_000)).toBe('P2D');
  });

  it('refuses calendar units, fractions, signs and empty forms', () => {
    for (const bad of ['P1Y', 'P1M', 'PT1.5S', '-PT1S', 'P', 'PT', 'P1DT', 'P1W1D', 'pt1s', 'PT1S ']) {
      expect(() => d.decode(bad), bad).toThrow(/RFC 3339 duration/);
    }
  });

  it('has whole non-negative seconds as valid values', () => {
    expect(() => d.validate(1500)).toThrow(codec.DecodeError);
    expect(() => d.validate(-1000)).toThrow(codec.DecodeError);
    expect(() => d.validate(61_000)).not.toThrow();
    expect(d.schema).toEqual({ type: 'string', format: 'duration', pattern: codec.DURATION_PATTERN });
  });
});
