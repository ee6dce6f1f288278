import { describe, expect, it } from 'vitest';
import * as codec from './index.js';

const widths = [
  ['int8', codec.int8(), -128, 127, { format: 'int8' }],
  ['int16', codec.int16(), -32768, 32767, { format: 'int16' }],
  ['int32', codec.int32(), -2147483648, 2147483647, { format: 'int32' }],
  ['uint8', codec.uint8(), 0, 255, { format: 'uint8' }],
  ['uint16', codec.uint16(), 0, 65535, { format: 'uint16' }],
  ['uint32', codec.uint32(), 0, 4294967295, { format: 'uint32' }],
  ['uint', codec.uint(), 0, Number.MAX_SAFE_INTEGER, { format: 'double-int', minimum: 0 }],
  ['int', codec.int(), Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, { format: 'double-int' }],
] as const;

describe('integer codecs', () => {
  for (const [name, c, min, max, schema] of widths) {
    it(`${name} accepts exactly ${min}…${max}`, () => {
      expect(c.kind).toBe(name);
      expect(c.decode(min)).toBe(min);
      expect(c.decode(max)).toBe(max);
      for (const bad of [min - 1, max + 1, 0.5, '1', null]) {
        expect(() => c.decode(bad), String(bad)).toThrow(codec.DecodeError);
      }
      expect(c.encode(max)).toBe(max);
    });
    it(`${name} states its range by its OpenAPI format, with a bound only where narrower`, () => {
      expect(c.schema).toEqual({ type: 'integer', ...schema });
    });
  }

  it('names the failed check and the value', () => {
    const err = (() => {
      try {
        codec.uint8().decode(256);
      } catch (e) {
        return e as codec.DecodeError;
      }
    })();
    expect(err?.issues).toEqual([{ path: [], pointer: '', message: 'expected an integer from 0 to 255 (uint8)', constraint: 'type', value: 256 }]);
  });

  it('int rejects integers a JavaScript number cannot hold exactly', () => {
    expect(() => codec.int().decode(2 ** 53)).toThrow(/safe integer/);
    expect(codec.int().decode(-(2 ** 53 - 1))).toBe(-(2 ** 53 - 1));
  });
});

describe('float32', () => {
  it('accepts finite numbers in the single-precision range, unrounded', () => {
    const f = codec.float32();
    expect(f.decode(0.1)).toBe(0.1);
    expect(f.decode(3.4028234663852886e38)).toBe(3.4028234663852886e38);
    expect(() => f.decode(3.5e38)).toThrow(/float32 range/);
    expect(() => f.decode(-Infinity)).toThrow(codec.DecodeError);
    expect(f.schema).toEqual({ type: 'number', format: 'float', minimum: -3.4028234663852886e38, maximum: 3.4028234663852886e38 });
  });
});

describe('intString', () => {
  it('reads the decimal text of a safe integer; -0 reads as 0', () => {
    const c = codec.intString();
    expect(c.decode('9007199254740991')).toBe(9007199254740991);
    expect(Object.is(c.decode('-0'), 0)).toBe(true);
    for (const bad of ['9007199254740992', '01', '+1', '1e3', ' 1', '']) expect(() => c.decode(bad), bad).toThrow(codec.DecodeError);
  });

  it('is a string with an exact pattern in a body, a double-int integer in a parameter', () => {
    const c = codec.intString();
    const body = c.schema;
    expect(body.type).toBe('string');
    const re = new RegExp(body.pattern as string, 'u');
    expect(['0', '-0', '9007199254740991', '-9007199254740991'].every((s) => re.test(s))).toBe(true);
    expect(['9007199254740992', '-9007199254740992', '01', '+1'].some((s) => re.test(s))).toBe(false);
    const gen = new codec.SchemaGenerator();
    expect(gen.parameterSchema(c)).toEqual({ type: 'integer', format: 'double-int' });
  });
});
