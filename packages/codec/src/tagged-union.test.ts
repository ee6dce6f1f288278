import { describe, expect, it } from 'vitest';
import * as codec from './index.js';

const circle = codec.object({ r: codec.number() });
const square = codec.object({ side: codec.number() }).strict();
const shape = codec.taggedUnion('kind', { circle, square });

describe('taggedUnion', () => {
  it('decodes the variant the tag selects; the value carries the tag', () => {
    expect(shape.decode({ kind: 'circle', r: 2 })).toEqual({ kind: 'circle', r: 2 });
    expect(shape.decode({ kind: 'square', side: 1 })).toEqual({ kind: 'square', side: 1 });
    expect(shape.encode({ kind: 'square', side: 1 })).toEqual({ kind: 'square', side: 1 });
  });

  it('reports a missing or unknown tag at the tag', () => {
    for (const bad of [{ r: 1 }, { kind: 'oval' }, { kind: 1 }, { kind: 'toString' }]) {
      expect(() => shape.decode(bad)).toThrow(expect.objectContaining({ issues: [expect.objectContaining({ pointer: '/kind', constraint: 'discriminator' })] }));
    }
    expect(() => shape.decode({ kind: 'square', side: 1, r: 2 })).toThrow(/r: is not a known field/);
  });

  it('pins the tag in each inline branch', () => {
    expect(shape.schema).toEqual({
      oneOf: [
        { type: 'object', properties: { r: { type: 'number' }, kind: { type: 'string', const: 'circle' } }, required: ['kind', 'r'] },
        {
          type: 'object',
          properties: { side: { type: 'number' }, kind: { type: 'string', const: 'square' } },
          required: ['kind', 'side'],
          additionalProperties: false,
        },
      ],
      discriminator: { propertyName: 'kind' },
    });
  });

  it('wraps named variants in allOf with the tag, and maps them', () => {
    const named = codec.taggedUnion('kind', { circle: circle.withName('Circle'), square: square.withName('Square') });
    const gen = new codec.SchemaGenerator({ refPrefix: '#/components/schemas/', refNamed: true });
    expect(gen.schema(named)).toEqual({
      oneOf: [
        {
          allOf: [
            { $ref: '#/components/schemas/Circle' },
            { type: 'object', properties: { kind: { type: 'string', const: 'circle' } }, required: ['kind'] },
          ],
        },
        // A strict variant is inlined: its additionalProperties: false would reject the tag.
        {
          type: 'object',
          properties: { side: { type: 'number' }, kind: { type: 'string', const: 'square' } },
          required: ['kind', 'side'],
          additionalProperties: false,
        },
      ],
      discriminator: { propertyName: 'kind', mapping: { circle: '#/components/schemas/Circle' } },
    });
    expect(gen.definitions).toEqual({ Circle: circle.schema });
  });
});

describe('untaggedUnion', () => {
  const u = codec.untaggedUnion(codec.int(), codec.string(), codec.array(codec.boolean()));
  it('decodes by the first codec that accepts the value', () => {
    expect(u.decode(1)).toBe(1);
    expect(u.decode('a')).toBe('a');
    expect(u.decode([true])).toEqual([true]);
    expect(() => u.decode(1.5)).toThrow(expect.objectContaining({ issues: [expect.objectContaining({ constraint: 'anyOf', value: 1.5 })] }));
    expect(u.schema).toEqual({ anyOf: [codec.int().schema, { type: 'string' }, { type: 'array', items: { type: 'boolean' } }] });
  });

  it('encodes with the first codec that round-trips the value', () => {
    const t = codec.untaggedUnion(codec.time(), codec.string());
    expect(t.encode(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
    expect(t.encode('x')).toBe('x');
    const n = codec.untaggedUnion(codec.intString(), codec.string());
    // "5" is a string the first codec reads as the number 5: the union is ambiguous there.
    expect(n.encode('5')).toBe('5');
    expect(n.decode(n.encode('5'))).toBe(5);
  });

  it('needs at least one codec', () => {
    expect(() => codec.untaggedUnion()).toThrow(TypeError);
  });
});
