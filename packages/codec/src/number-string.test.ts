import { describe, expect, it } from 'vitest';
import * as validate from '../../validate/src/index.js';
import * as codec from './index.js';

describe('codec.numberString', () => {
  const price = codec.numberString().refine(validate.min(0));

  it('reads the text of a JSON number, and nothing else', () => {
    for (const [text, n] of [['2.5', 2.5], ['-1e3', -1000], ['0', 0], ['-0', 0], ['1E+2', 100], ['12', 12]] as const) expect(codec.numberString().decode(text), text).toBe(n);
    for (const bad of ['', ' 1', '+1', '01', '1.', '.5', 'NaN', 'Infinity', '0x10', '1e400', '1,5']) expect(() => codec.numberString().decode(bad), bad).toThrow(codec.DecodeError);
    expect(() => codec.numberString().decode(2.5)).toThrow(/expected number string/);
    expect(() => price.decode('-1')).toThrow(/at least 0/);
    expect(Object.is(codec.numberString().decode('-0'), 0)).toBe(true);
  });

  it('writes a finite number as its text, which it reads back', () => {
    for (const n of [2.5, -1000, 1e21, 5e-7, 0]) expect(codec.numberString().decode(codec.numberString().encode(n))).toBe(n);
    expect(codec.numberString().encode(1e21)).toBe('1e+21');
    expect(() => codec.numberString().encode(Number.NaN)).toThrow(codec.EncodeError);
    expect(() => codec.numberString().encode('x' as never)).toThrow(codec.EncodeError);
  });

  it('is a number as a parameter, and its text as a body value', () => {
    expect(new codec.SchemaGenerator().parameterSchema(price)).toEqual({ type: 'number', minimum: 0 });
    const body = new codec.SchemaGenerator();
    expect(body.schema(price)).toMatchObject({ type: 'string' });
    expect(new RegExp((body.schema(price) as { pattern: string }).pattern).test('1.5e3')).toBe(true);
  });
});
