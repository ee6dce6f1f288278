import { describe, expect, it } from 'vitest';
import * as codec from './index.js';

describe('literal, constant, eq, any', () => {
  it('literal accepts one primitive and states its type', () => {
    expect(codec.literal('a').decode('a')).toBe('a');
    expect(() => codec.literal(1).decode(1.5)).toThrow(/expected 1/);
    expect(codec.literal(1).schema).toEqual({ type: 'integer', const: 1 });
    expect(codec.literal(null).schema).toEqual({ type: 'null', const: null });
  });

  it('constant compares structurally and returns a fresh copy', () => {
    const c = codec.constant({ v: 1, list: ['x'] });
    const a = c.decode({ list: ['x'], v: 1 });
    expect(a).toEqual({ v: 1, list: ['x'] });
    expect(c.decode({ v: 1, list: ['x'] })).not.toBe(c.value);
    expect(() => c.decode({ v: 1, list: ['x'], more: 1 })).toThrow(expect.objectContaining({ issues: [expect.objectContaining({ constraint: 'const' })] }));
    expect(c.schema).toEqual({ const: { v: 1, list: ['x'] } });
  });

  it('eq accepts only the wire form of one value of a codec', () => {
    const epoch = codec.eq(codec.time(), new Date(0));
    expect(epoch.decode('1970-01-01T00:00:00.000Z')).toEqual(new Date(0));
    expect(() => epoch.decode('1970-01-01T00:00:00Z')).toThrow(/expected "1970-01-01T00:00:00.000Z"/);
    expect(epoch.schema).toEqual({ type: 'string', format: 'date-time', const: '1970-01-01T00:00:00.000Z' });
    const gen = new codec.SchemaGenerator({ refPrefix: '#/components/schemas/', refNamed: true });
    expect(gen.schema(codec.eq(codec.string().withName('Name'), 'x'))).toEqual({ allOf: [{ $ref: '#/components/schemas/Name' }], const: 'x' });
  });

  it('any passes every value through, keeping own __proto__ keys as data', () => {
    const v = JSON.parse('{"__proto__": {"polluted": true}, "a": [1]}') as Record<string, unknown>;
    const out = codec.any().decode(v) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(codec.any().schema).toEqual({});
    expect(() => codec.object({ x: codec.any() }).decode({})).toThrow(/x: is required/);
  });
});
