import { describe, expect, it } from 'vitest';
import { compile } from '../test/support/ajv.js';
import * as codec from './index.js';

describe('SchemaGenerator', () => {
  it('turns named codecs into components.schemas entries, once', () => {
    const user = codec.object({ id: codec.string() }).withName('User').withDescription('A user');
    const list = codec.object({ items: codec.array(user), first: codec.nullable(user) });
    const gen = new codec.SchemaGenerator({ refPrefix: '#/components/schemas/', refNamed: true });
    expect(gen.schema(list)).toEqual({
      type: 'object',
      properties: {
        items: { type: 'array', items: { $ref: '#/components/schemas/User' } },
        first: { anyOf: [{ $ref: '#/components/schemas/User' }, { type: 'null' }] },
      },
      required: ['items', 'first'],
    });
    expect(gen.definitions).toEqual({ User: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], description: 'A user' } });
  });

  it('refuses two different schemas under one name', () => {
    const gen = new codec.SchemaGenerator({ refNamed: true });
    gen.schema(codec.string().withName('X'));
    expect(() => gen.schema(codec.int().withName('X'))).toThrow(codec.SchemaNameConflictError);
    expect(gen.schema(codec.string().withName('X'))).toEqual({ $ref: '#/$defs/X' });
  });

  it('describes string-carried values by their meaning in parameter position', () => {
    const gen = new codec.SchemaGenerator();
    expect(gen.parameterSchema(codec.intString())).toEqual({ type: 'integer', format: 'double-int' });
    expect(gen.parameterSchema(codec.boolString())).toEqual({ type: 'boolean' });
    expect(gen.schema(codec.boolString())).toEqual({ type: 'string', enum: ['true', 'false'] });
  });

  it('emits metadata: title, description, examples, deprecated, default', () => {
    const c = codec.int32().withTitle('Count').withDescription('How many').withExample(3).withDeprecated().withMeta({ default: 0 });
    expect(c.schema).toEqual({
      ...codec.int32().schema,
      title: 'Count',
      description: 'How many',
      examples: [3],
      deprecated: true,
      default: 0,
    });
    expect(codec.time().withExample(new Date(0)).schema.examples).toEqual(['1970-01-01T00:00:00.000Z']);
  });
});

describe('SchemaGenerator: defaults in parameter position', () => {
  it('states a default as the value the parameter schema describes, not its wire text', () => {
    const gen = new codec.SchemaGenerator();
    expect(gen.parameterSchema(codec.defaulted(codec.intString(), 20))).toEqual({ type: 'integer', format: 'double-int', default: 20 });
    expect(gen.parameterSchema(codec.defaulted(codec.boolString(), true))).toEqual({ type: 'boolean', default: true });
    expect(gen.parameterSchema(codec.defaulted(codec.int64(), 5n))).toEqual({ type: 'integer', format: 'int64', default: 5 });
    expect(gen.parameterSchema(codec.defaulted(codec.string(), 'asc'))).toEqual({ type: 'string', default: 'asc' });
    expect(gen.parameterSchema(codec.defaulted(codec.array(codec.intString()), [1, 2]))).toEqual({
      type: 'array',
      items: { type: 'integer', format: 'double-int' },
      default: [1, 2],
    });
    // Body position keeps the wire value: there the schema is the text's.
    expect(gen.schema(codec.defaulted(codec.intString(), 20))).toMatchObject({ type: 'string', default: '20' });
  });

  it('reads a named inner codec through its definition', () => {
    const gen = new codec.SchemaGenerator({ refNamed: true });
    expect(gen.parameterSchema(codec.defaulted(codec.intString().withName('Limit'), 20))).toEqual({ $ref: '#/$defs/Limit', default: 20 });
  });

  it('leaves out a default no JSON number holds exactly', () => {
    const gen = new codec.SchemaGenerator();
    expect(gen.parameterSchema(codec.defaulted(codec.int64(), 2n ** 60n))).toEqual({ type: 'integer', format: 'int64' });
  });

  it('gives a default that is valid against its own schema (Ajv 2020-12)', () => {
    const gen = new codec.SchemaGenerator();
    for (const c of [codec.defaulted(codec.intString(), 20), codec.defaulted(codec.boolString(), false), codec.defaulted(codec.int64(), -3n)]) {
      const s = gen.parameterSchema(c as codec.Codec<unknown>);
      expect(compile(s)(s.default)).toBe(true);
    }
  });
});
