import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile } from '../test/support/ajv.js';
import * as codec from './index.js';

/** The one issue of a `DecodeError` or `EncodeError` thrown by `run`. */
function onlyIssue(run: () => unknown): codec.Issue {
  try {
    run();
  } catch (err) {
    if (err instanceof codec.DecodeError || err instanceof codec.EncodeError) {
      expect(err.issues).toHaveLength(1);
      return err.issues[0] as codec.Issue;
    }
    throw err;
  }
  return expect.fail('expected an issue');
}

/** A numeric constraint with the schema keyword `validate.max` adds. */
const atMost = (n: number): codec.Constraint<number> => ({
  name: 'max',
  test: (v) => v <= n,
  message: () => `must be at most ${n}`,
  schema: (s) => ({ ...s, maximum: n }),
});

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

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

  it('refuses instants an offset moves outside the years 0000 to 9999, as encode does', () => {
    for (const bad of ['0000-01-01T00:00:00+00:01', '0000-01-01T00:59:59.999+01:00', '9999-12-31T23:59:59-00:01', '9999-12-31T23:00:00-01:00']) {
      const issue = onlyIssue(() => t.decode(bad));
      expect(issue, bad).toMatchObject({ constraint: 'format', value: bad });
      expect(issue.message, bad).toMatch(/years 0000 to 9999/);
      // The text is an RFC 3339 date-time: only the instant it names is out of range.
      expect(codec.isDateTime(bad), bad).toBe(true);
    }
    expect(t.decode('0000-01-01T00:01:00+00:01').toISOString()).toBe('0000-01-01T00:00:00.000Z');
    expect(t.decode('0000-01-01T00:00:00-00:01').toISOString()).toBe('0000-01-01T00:01:00.000Z');
    expect(t.decode('9999-12-31T23:58:59.999-00:01').toISOString()).toBe('9999-12-31T23:59:59.999Z');
    expect(t.decode('9999-12-31T23:59:59.999+00:01').toISOString()).toBe('9999-12-31T23:58:59.999Z');
  });

  it('decodes only instants that encode and validate take', () => {
    const text = fc
      .tuple(
        fc.constantFrom('0000-01-01', '0000-01-02', '9999-12-30', '9999-12-31'),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.constantFrom('', '.999'),
        fc.constantFrom('Z', '+', '-'),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
      )
      .map(([d, h, m, f, z, oh, om]) => `${d}T${pad(h)}:${pad(m)}:59${f}${z === 'Z' ? z : `${z}${pad(oh)}:${pad(om)}`}`);
    fc.assert(
      fc.property(text, (s) => {
        let value: Date;
        try {
          value = t.decode(s);
        } catch (err) {
          if (err instanceof codec.DecodeError) return;
          throw err;
        }
        t.validate(value);
        expect(t.decode(t.encode(value))).toEqual(value);
      }),
    );
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

  it('decodes the first and last days RFC 3339 can write, and only days encode takes', () => {
    const d = codec.date();
    expect(d.decode('0000-01-01').getTime()).toBe(-62_167_219_200_000); // 0000-01-01T00:00:00.000Z
    expect(d.decode('9999-12-31').toISOString()).toBe('9999-12-31T00:00:00.000Z');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), (y, m, day) => {
        const s = `${pad(y, 4)}-${pad(m)}-${pad(day)}`;
        if (!codec.isCalendarDate(y, m, day)) return;
        const value = d.decode(s);
        d.validate(value);
        expect(d.encode(value)).toBe(s);
      }),
    );
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

  it('refuses durations whose milliseconds are not a safe integer, as encode does', () => {
    const largest = 9_007_199_254_740_000; // PT9007199254740S: the last whole second below 2^53 ms
    expect(d.decode('PT9007199254740S')).toBe(largest);
    expect(() => d.validate(largest)).not.toThrow();
    const byEncode = onlyIssue(() => d.encode(largest + 1000));
    for (const bad of ['PT9007199254741S', 'P99999999999999999999W', 'P14892856W', 'P104249992D', 'P104249991DT99999999999999999999S']) {
      const issue = onlyIssue(() => d.decode(bad));
      expect(issue, bad).toMatchObject({ constraint: byEncode.constraint, value: bad });
      expect(issue.message, bad).toMatch(/safe integer/);
    }
    expect(byEncode.constraint).toBe('format');
  });

  it('decodes only durations that encode and validate take', () => {
    const digits = fc.oneof(fc.integer({ min: 0, max: 999 }).map(String), fc.stringMatching(/^\d{1,20}$/));
    const text = fc
      .tuple(fc.boolean(), fc.array(fc.option(digits, { nil: undefined }), { minLength: 4, maxLength: 4 }), digits)
      .map(([weeks, [dd, h, m, s], w]) => {
        if (weeks) return `P${w}W`;
        const time = (h === undefined ? '' : `${h}H`) + (m === undefined ? '' : `${m}M`) + (s === undefined ? '' : `${s}S`);
        return `P${dd === undefined ? '' : `${dd}D`}${time === '' ? '' : `T${time}`}`;
      });
    fc.assert(
      fc.property(text, (s) => {
        let value: number;
        try {
          value = d.decode(s);
        } catch (err) {
          if (err instanceof codec.DecodeError) return;
          throw err;
        }
        d.validate(value);
        expect(d.decode(d.encode(value))).toBe(value);
      }),
    );
  });

  it('checks numeric constraints on decode without stating them on its string schema', () => {
    const c = d.refine(atMost(3_600_000));
    expect(() => c.decode('PT2H')).toThrow(/at most 3600000/);
    const plain = { type: 'string', format: 'duration', pattern: codec.DURATION_PATTERN };
    expect(c.schema).toEqual(plain);
    expect(new codec.SchemaGenerator().parameterSchema(c)).toEqual(plain);
    expect(() => compile(c.schema)).not.toThrow();
  });
});
