import { describe, expect, it } from 'vitest';
import * as codec from './index.js';

const atLeast = (n: bigint): codec.Constraint<bigint> => ({
  name: 'min',
  test: (v) => v >= n,
  message: () => `must be at least ${n}`,
  schema: { minimum: Number(n) },
});

describe('int64 and uint64', () => {
  it('decode the full 64-bit range from decimal text to bigint, and back', () => {
    const c = codec.int64();
    expect(c.decode('9223372036854775807')).toBe(2n ** 63n - 1n);
    expect(c.decode('-9223372036854775808')).toBe(-(2n ** 63n));
    expect(c.encode(-(2n ** 63n))).toBe('-9223372036854775808');
    expect(() => c.decode('9223372036854775808')).toThrow(/int64/);
    expect(() => c.decode(1)).toThrow(/expected integer string, got number/);
    const u = codec.uint64();
    expect(u.decode('18446744073709551615')).toBe(2n ** 64n - 1n);
    expect(() => u.decode('-1')).toThrow(/uint64/);
    expect(u.decode('-0')).toBe(0n);
  });

  it('emit an exact pattern in a body and an integer in a parameter', () => {
    const body = codec.int64().schema;
    expect(body.type).toBe('string');
    const re = new RegExp(body.pattern as string, 'u');
    expect(re.test('9223372036854775807') && re.test('-9223372036854775808')).toBe(true);
    expect(re.test('9223372036854775808') || re.test('-9223372036854775809') || re.test('007')).toBe(false);
    const gen = new codec.SchemaGenerator();
    expect(gen.parameterSchema(codec.int64())).toEqual({ type: 'integer', format: 'int64' });
    expect(gen.parameterSchema(codec.uint64())).toEqual({ type: 'integer', minimum: 0 });
  });

  it('run constraints on the bigint; reflect them only in parameter position', () => {
    const c = codec.int64().refine(atLeast(10n));
    expect(() => c.decode('9')).toThrow(/at least 10/);
    expect(c.schema.minimum).toBeUndefined();
    expect(new codec.SchemaGenerator().parameterSchema(c)).toEqual({ type: 'integer', format: 'int64', minimum: 10 });
  });
});
