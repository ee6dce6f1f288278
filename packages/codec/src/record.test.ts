import { describe, expect, it } from 'vitest';
import * as codec from './index.js';

const uuidKey: codec.Constraint<string> = {
  name: 'uuid',
  test: (v) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(v),
  message: () => 'must be a UUID',
  schema: { format: 'uuid' },
};

describe('record', () => {
  it('keeps every key, __proto__ as an own property', () => {
    const r = codec.record(codec.int()).decode(JSON.parse('{"__proto__": 1, "a": 2}'));
    expect(Object.getPrototypeOf(r)).toBe(Object.prototype);
    expect(Object.entries(r)).toEqual([['__proto__', 1], ['a', 2]]);
    expect(codec.record(codec.int()).schema).toEqual({ type: 'object', additionalProperties: codec.int().schema });
  });

  it('decodes keys with a key codec and documents them as propertyNames', () => {
    const byId = codec.record(codec.string().refine(uuidKey), codec.boolean());
    expect(() => byId.decode({ nope: true })).toThrow(expect.objectContaining({ issues: [expect.objectContaining({ path: ['nope'], constraint: 'uuid' })] }));
    expect(byId.schema).toEqual({ type: 'object', propertyNames: { type: 'string', format: 'uuid' }, additionalProperties: { type: 'boolean' } });
    const byNumber = codec.record(codec.intString(), codec.string());
    const v = byNumber.decode({ '1': 'a', '-2': 'b' });
    expect(v[1]).toBe('a');
    expect(byNumber.encode({ 1: 'a', [-2]: 'b' })).toEqual({ '1': 'a', '-2': 'b' });
    expect(() => byNumber.decode({ '01': 'a' })).toThrow(codec.DecodeError);
    expect(byNumber.schema.propertyNames?.type).toBe('string');
  });

  it('maps decoded keys back through the key codec', () => {
    const upper = codec.map(codec.string(), (s) => s.toUpperCase(), (s) => s.toLowerCase());
    const r = codec.record(upper, codec.int());
    expect(r.decode({ ab: 1 })).toEqual({ AB: 1 });
    expect(r.encode({ AB: 1 })).toEqual({ ab: 1 });
  });
});
