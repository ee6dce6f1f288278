import { describe, expect, it } from 'vitest';
import * as codec from './index.js';
import { DecodeError } from './index.js';

const minLength = (n: number): codec.Constraint<string> => ({
  name: 'minLength',
  params: { minLength: n },
  test: (v) => v.length >= n,
  message: () => `must have at least ${n} characters`,
  schema: { minLength: n },
});

describe('object', () => {
  const user = codec.object({
    name: codec.string().refine(minLength(1)),
    age: codec.optional(codec.int()),
    tags: codec.array(codec.string()),
  });

  it('decodes, strips unknown keys and keeps optional keys absent', () => {
    const v = user.decode({ name: 'a', tags: ['x'], extra: 1 });
    expect(v).toEqual({ name: 'a', tags: ['x'] });
    expect('age' in v).toBe(false);
  });

  it('collects every issue with path, pointer, constraint and value', () => {
    const err = (() => {
      try {
        user.decode({ name: '', age: 1.5, tags: ['ok', 3] });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(DecodeError);
    const issues = (err as DecodeError).issues;
    expect(issues.map((i) => [i.pointer, i.constraint, i.value])).toEqual([
      ['/name', 'minLength', ''],
      ['/age', 'type', 1.5],
      ['/tags/1', 'type', 3],
    ]);
    expect((err as DecodeError).message).toMatch(/^name: must have at least 1 characters/);
  });

  it('stops at the first issue with abortEarly', () => {
    expect(() => user.decode({ name: '', age: 'x' }, { abortEarly: true })).toThrow(
      expect.objectContaining({ issues: [expect.objectContaining({ pointer: '/name' })] }),
    );
  });

  it('never reads inherited keys nor writes to a prototype', () => {
    const c = codec.object({ constructor: codec.optional(codec.string()) });
    expect(c.decode({})).toEqual({});
    const r = codec.record(codec.int()).decode(JSON.parse('{"__proto__": 1}'));
    expect(Object.getPrototypeOf(r)).toBe(Object.prototype);
    expect(Object.keys(r)).toEqual(['__proto__']);
  });

  it('rejects unknown keys when strict', () => {
    expect(() => user.strict().decode({ name: 'a', tags: [], x: 1 })).toThrow(/x: is not a known field/);
  });

  it('emits JSON Schema with required and constraint keywords', () => {
    expect(user.schema).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1 },
        age: { type: 'integer', format: 'double-int' },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['name', 'tags'],
    });
  });
});

describe('scalars', () => {
  it('round-trips time, date and bytes through their wire forms', () => {
    const t = new Date('2024-02-29T12:34:56.789Z');
    expect(codec.time().decode(codec.time().encode(t))).toEqual(t);
    expect(codec.date().encode(codec.date().decode('2024-02-29'))).toBe('2024-02-29');
    expect(() => codec.date().decode('2023-02-29')).toThrow(DecodeError);
    const b = new Uint8Array([0, 1, 254, 255]);
    expect(codec.bytes().encode(b)).toBe('AAH+/w==');
    expect(codec.bytes().decode('AAH+/w==')).toEqual(b);
  });

  it('intString and boolString carry values as text', () => {
    expect(codec.intString().decode('-12')).toBe(-12);
    expect(() => codec.intString().decode('1e3')).toThrow(DecodeError);
    expect(() => codec.intString().decode('012')).toThrow(DecodeError);
    expect(codec.intString().encode(7)).toBe('7');
    expect(codec.boolString().decode('false')).toBe(false);
  });

  it('nullable emits 3.1 schemas', () => {
    expect(codec.nullable(codec.string()).schema).toEqual({ type: ['string', 'null'] });
    expect(codec.nullable(codec.literal('a')).schema).toEqual({ anyOf: [{ type: 'string', const: 'a' }, { type: 'null' }] });
  });
});

describe('taggedUnion', () => {
  const shape = codec.taggedUnion('kind', {
    circle: codec.object({ r: codec.number() }),
    square: codec.object({ side: codec.number() }),
  });
  it('decodes the variant selected by the tag and carries the tag', () => {
    expect(shape.decode({ kind: 'circle', r: 2 })).toEqual({ kind: 'circle', r: 2 });
    expect(shape.encode({ kind: 'square', side: 1 })).toEqual({ kind: 'square', side: 1 });
    expect(() => shape.decode({ kind: 'oval' })).toThrow(/kind: expected one of "circle", "square"/);
  });
});

describe('Standard Schema', () => {
  it('validates through ~standard', () => {
    const s = codec.object({ n: codec.int() })['~standard'];
    expect(s.validate({ n: 1 })).toEqual({ value: { n: 1 } });
    // The issues are the DecodeError's own: Standard Schema's message and path, and more.
    expect(s.validate({ n: 'x' })).toEqual({ issues: [{ message: 'expected integer, got string', path: ['n'], pointer: '/n', constraint: 'type', value: 'x' }] });
  });
});

describe('decodeVars', () => {
  it('decodes present variables into the target', () => {
    const req: { limit?: number } = {};
    codec.decodeVars(req, { limit: '5' }, { name: 'limit', codec: codec.intString(), set: (r, v) => (r.limit = v as number) });
    expect(req.limit).toBe(5);
  });
});
