import { describe, expect, it } from 'vitest';
import { compile, standalone } from '../test/support/ajv.js';
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
    });
  });

  it('references a named variant through a tagged definition of its own, and maps that', () => {
    const named = codec.taggedUnion('kind', { circle: circle.withName('Circle'), square: square.withName('Square') });
    const gen = new codec.SchemaGenerator({ refPrefix: '#/components/schemas/', refNamed: true });
    expect(gen.schema(named)).toEqual({
      oneOf: [
        // Not the bare Circle: code generators add the discriminator to every schema the mapping names.
        { $ref: '#/components/schemas/CircleVariant' },
        // A strict variant is inlined: its additionalProperties: false would reject the tag.
        {
          type: 'object',
          properties: { side: { type: 'number' }, kind: { type: 'string', const: 'square' } },
          required: ['kind', 'side'],
          additionalProperties: false,
        },
      ],
      // No discriminator: it could not select the inline branch.
    });
    const all = new codec.SchemaGenerator({ refPrefix: '#/components/schemas/', refNamed: true });
    expect(all.schema(codec.taggedUnion('kind', { circle: circle.withName('Circle'), square: codec.object({ side: codec.number() }).withName('Sq') }))).toMatchObject({
      discriminator: { propertyName: 'kind', mapping: { circle: '#/components/schemas/CircleVariant', square: '#/components/schemas/SqVariant' } },
    });
    expect(gen.definitions).toEqual({
      // The variant's own definition stays what a route sending it bare sends: no tag.
      Circle: circle.schema,
      CircleVariant: {
        allOf: [
          { $ref: '#/components/schemas/Circle' },
          { type: 'object', properties: { kind: { type: 'string', const: 'circle' } }, required: ['kind'] },
        ],
      },
    });
  });

  it('never maps a tag to a schema that lets the tag be absent', () => {
    const card = codec.object({ last4: codec.string() }).withName('Card');
    const bank = codec.object({ iban: codec.string() }).withName('Bank');
    const gen = new codec.SchemaGenerator({ refPrefix: '#/components/schemas/', refNamed: true });
    const union = gen.schema(codec.taggedUnion('kind', { card, bank }));
    expect(gen.schema(card)).toEqual({ $ref: '#/components/schemas/Card' });
    const mapping = (union.discriminator as { mapping: Record<string, string> }).mapping;
    for (const [tag, ref] of Object.entries(mapping)) {
      const target = gen.definitions[ref.slice('#/components/schemas/'.length)];
      expect(target?.allOf?.[1]).toEqual({ type: 'object', properties: { kind: { type: 'string', const: tag } }, required: ['kind'] });
    }
    expect(gen.definitions['Card']).not.toHaveProperty('allOf');
    expect(gen.definitions['Card']?.required).toEqual(['last4']);
  });

  it('gives the tagged definition a fresh name when the variant is tagged otherwise elsewhere', () => {
    const card = codec.object({ last4: codec.string() }).withName('Card');
    const gen = new codec.SchemaGenerator({ refPrefix: '#/components/schemas/', refNamed: true });
    gen.schema(codec.taggedUnion('kind', { card }));
    // The same tagging again: the same definition.
    expect(gen.schema(codec.taggedUnion('kind', { card })).oneOf).toEqual([{ $ref: '#/components/schemas/CardVariant' }]);
    // Another tag value or property: another definition.
    expect(gen.schema(codec.taggedUnion('type', { card })).oneOf).toEqual([{ $ref: '#/components/schemas/CardVariant2' }]);
    expect(gen.definitions['CardVariant2']?.allOf?.[1]).toMatchObject({ required: ['type'] });
    // A codec named like a tagged definition must render the same schema.
    expect(() => gen.schema(codec.string().withName('CardVariant'))).toThrow(codec.SchemaNameConflictError);
    // A name a codec holds already is skipped.
    const taken = new codec.SchemaGenerator({ refPrefix: '#/components/schemas/', refNamed: true });
    taken.schema(codec.string().withName('CardVariant'));
    expect(taken.schema(codec.taggedUnion('kind', { card })).oneOf).toEqual([{ $ref: '#/components/schemas/CardVariant2' }]);
  });

  it('validates exactly as before: tagged values against the union, bare ones against the variant (Ajv 2020-12)', () => {
    const card = codec.object({ last4: codec.string() }).withName('Card');
    const union = codec.taggedUnion('kind', { card, bank: codec.object({ iban: codec.string() }) });
    const gen = new codec.SchemaGenerator({ refPrefix: '#/components/schemas/', refNamed: true });
    const unionOk = compile(standalone(gen.schema(union), gen.definitions));
    const cardOk = compile(standalone(gen.schema(card), gen.definitions));
    expect(unionOk({ kind: 'card', last4: '1' })).toBe(true);
    expect(unionOk({ last4: '1' })).toBe(false);
    expect(unionOk({ kind: 'bank', last4: '1' })).toBe(false);
    expect(cardOk({ last4: '1' })).toBe(true);
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
