import { describe, expect, it } from 'vitest';
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
    expect(gen.parameterSchema(codec.intString())).toEqual({ type: 'integer' });
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
