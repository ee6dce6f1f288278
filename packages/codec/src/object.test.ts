import { describe, expect, it } from 'vitest';
import * as codec from './index.js';

const issuesOf = (f: () => unknown): readonly codec.Issue[] => {
  try {
    f();
  } catch (e) {
    if (e instanceof codec.DecodeError) return e.issues;
    throw e;
  }
  throw new Error('expected a DecodeError');
};

describe('object: unknown keys', () => {
  const c = codec.object({ a: codec.int() });
  it('strips them by default and rejects them when strict', () => {
    expect(c.decode({ a: 1, b: 2 })).toEqual({ a: 1 });
    expect(issuesOf(() => c.strict().decode({ a: 1, b: 2, c: 3 }))).toEqual([
      { path: ['b'], pointer: '/b', message: 'is not a known field', constraint: 'unknownKey', value: 2 },
      { path: ['c'], pointer: '/c', message: 'is not a known field', constraint: 'unknownKey', value: 3 },
    ]);
    expect(c.strict().strip().decode({ a: 1, b: 2 })).toEqual({ a: 1 });
    expect(c.strict().schema).toEqual({ type: 'object', properties: { a: codec.int().schema }, required: ['a'], additionalProperties: false });
  });

  it('never lets __proto__ or constructor reach a prototype', () => {
    const input = JSON.parse('{"a": 1, "__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 1}}}') as unknown;
    const out = c.decode(input);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const declared = codec.object({ ['__proto__']: codec.optional(codec.int()), constructor: codec.optional(codec.int()) });
    expect(declared.decode({})).toEqual({});
    const both = declared.decode(JSON.parse('{"__proto__": 1, "constructor": 2}'));
    expect(Object.getPrototypeOf(both)).toBe(Object.prototype);
    expect(Object.entries(both)).toEqual([['__proto__', 1], ['constructor', 2]]);
    expect(Object.keys(declared.encode(both) as object)).toEqual(['__proto__', 'constructor']);
  });
});

describe('object: issues', () => {
  const c = codec.object({ name: codec.string(), tags: codec.array(codec.int()), meta: codec.object({ 'a/b~c': codec.boolean() }) });
  it('reports every issue with path, JSON pointer, constraint and value', () => {
    const issues = issuesOf(() => c.decode({ tags: [1, 'x', 2.5], meta: { 'a/b~c': 'no' } }));
    expect(issues.map((i) => [i.path, i.pointer, i.constraint, i.value])).toEqual([
      [['name'], '/name', 'required', undefined],
      [['tags', 1], '/tags/1', 'type', 'x'],
      [['tags', 2], '/tags/2', 'type', 2.5],
      [['meta', 'a/b~c'], '/meta/a~1b~0c', 'type', 'no'],
    ]);
  });
  it('stops at the first issue with abortEarly', () => {
    expect(issuesOf(() => c.decode({ tags: [1, 'x'] }, { abortEarly: true }))).toHaveLength(1);
  });
});

describe('object: optional, defaulted and wire names', () => {
  const c = codec
    .object({
      userId: codec.string(),
      limit: codec.defaulted(codec.int(), 20),
      note: codec.optional(codec.string()),
    })
    .withWireNames({ userId: 'user_id' });

  it('reads and writes renamed fields under their wire key', () => {
    expect(c.decode({ user_id: 'u' })).toEqual({ userId: 'u', limit: 20 });
    expect(c.encode({ userId: 'u', limit: 5 })).toEqual({ user_id: 'u', limit: 5 });
    expect(issuesOf(() => c.decode({ userId: 'u' }))[0]).toMatchObject({ pointer: '/user_id', constraint: 'required' });
    expect(c.wireName('userId')).toBe('user_id');
    expect(c.strict().decode({ user_id: 'u' })).toEqual({ userId: 'u', limit: 20 });
    expect(() => c.strict().decode({ user_id: 'u', userId: 'u' })).toThrow(/userId: is not a known field/);
  });

  it('documents the wire names, the default and what is required', () => {
    expect(c.schema).toEqual({
      type: 'object',
      properties: {
        user_id: { type: 'string' },
        limit: { ...codec.int().schema, default: 20 },
        note: { type: 'string' },
      },
      required: ['user_id'],
    });
  });

  it('decodes a fresh default each time and refuses an invalid default', () => {
    const list = codec.object({ items: codec.defaulted(codec.array(codec.int()), [1]) });
    const a = list.decode({});
    a.items.push(2);
    expect(list.decode({})).toEqual({ items: [1] });
    expect(() => codec.defaulted(codec.uint8(), 300)).toThrow(codec.DecodeError);
  });

  it('refuses two fields with one wire key', () => {
    expect(() => codec.object({ a: codec.int(), b: codec.int() }).withWireNames({ b: 'a' })).toThrow(TypeError);
  });
});
