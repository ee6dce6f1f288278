import { describe, expect, it } from 'vitest';
import * as codec from './index.js';

interface Node {
  name: string;
  children: Node[];
}
const node: codec.Codec<Node> = codec.object({ name: codec.string(), children: codec.array(codec.lazy(() => node)) });

describe('lazy', () => {
  it('decodes and encodes recursive values', () => {
    const v = { name: 'a', children: [{ name: 'b', children: [] }] };
    expect(node.decode(v)).toEqual(v);
    expect(() => node.decode({ name: 'a', children: [{ name: 1, children: [] }] })).toThrow(/children\[0\]\.name/);
  });

  it('emits a finite schema: a definition and $refs', () => {
    expect(node.schema).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Recursive1' } } },
      required: ['name', 'children'],
      $defs: {
        Recursive1: {
          type: 'object',
          properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Recursive1' } } },
          required: ['name', 'children'],
        },
      },
    });
  });

  it('uses the name of a named recursive codec, as a components.schemas entry', () => {
    const tree: codec.Codec<Node> = codec.object({ name: codec.string(), children: codec.array(codec.lazy(() => tree)) }).withName('Tree');
    const gen = new codec.SchemaGenerator({ refPrefix: '#/components/schemas/', refNamed: true });
    expect(gen.schema(tree)).toEqual({ $ref: '#/components/schemas/Tree' });
    expect(gen.definitions).toEqual({
      Tree: {
        type: 'object',
        properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } },
        required: ['name', 'children'],
      },
    });
    expect(tree.schema.$defs).toHaveProperty('Tree');
  });

  it('inlines a lazy codec that is not recursive', () => {
    expect(codec.lazy(() => codec.string()).schema).toEqual({ type: 'string' });
  });
});

describe('deep values', () => {
  it('reports a value nested deeper than the stack reaches as a DecodeError (constraint depth), not a RangeError', () => {
    type Tree = { a?: Tree | undefined };
    const tree: codec.Codec<Tree> = codec.object({ a: codec.optional(codec.lazy(() => tree)) });
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    let err: unknown;
    try {
      tree.decode(deep);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(codec.DecodeError);
    expect((err as codec.DecodeError).issues).toEqual([expect.objectContaining({ constraint: 'depth', message: 'the value is nested too deeply' })]);
    expect((err as Error).message).not.toMatch(/call stack/i);
  });
});
