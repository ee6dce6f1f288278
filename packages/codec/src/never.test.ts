import { describe, expect, it } from 'vitest';
import { DecodeError, EncodeError, never, object, optional, SchemaGenerator } from './index.js';

describe('codec.never()', () => {
  it('refuses every input, with the type constraint', () => {
    for (const input of [undefined, null, 0, '', {}, []]) {
      let caught: unknown;
      try {
        never().decode(input);
      } catch (err) {
        caught = err;
      }
      expect(caught, JSON.stringify(input)).toBeInstanceOf(DecodeError);
      expect((caught as DecodeError).issues[0]?.constraint).toBe('type');
    }
  });

  it('encodes nothing', () => {
    expect(() => never().encode(1 as never)).toThrow(EncodeError);
    expect(() => never().encode(undefined as never)).toThrow(EncodeError);
  });

  it('is the schema that nothing validates, and makes a field that can only be absent', () => {
    expect(new SchemaGenerator().schema(never())).toEqual({ not: {} });
    const o = object({ a: optional(never()) });
    expect(o.decode({})).toEqual({});
    expect(() => o.decode({ a: 1 })).toThrow(DecodeError);
  });
});
