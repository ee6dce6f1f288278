import type { StandardSchemaV1 } from '@standard-schema/spec';
import { toJsonSchema, toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as codec from './index.js';

const openapi = (): codec.SchemaGenerator => new codec.SchemaGenerator({ refPrefix: '#/components/schemas/', refNamed: true });

describe('fromStandardSchema with zod 4', () => {
  const user = codec.fromStandardSchema(z.object({ name: z.string().min(1), age: z.int().min(0).optional() }));

  it('decodes through the zod schema, with its issues as ours', () => {
    expect(user.decode({ name: 'a', extra: 1 })).toEqual({ name: 'a' });
    expect(user.vendor).toBe('zod');
    let err: codec.DecodeError | undefined;
    try {
      user.decode({ name: '', age: -1 });
    } catch (e) {
      err = e as codec.DecodeError;
    }
    expect(err?.issues.map((i) => [i.pointer, i.constraint, i.value])).toEqual([
      ['/name', 'too_small', ''],
      ['/age', 'too_small', -1],
    ]);
  });

  it('reports issues under the enclosing field, and only the first with abortEarly', () => {
    const page = codec.object({ users: codec.array(user) });
    expect(() => page.decode({ users: [{ name: 'a' }, { name: '' }] })).toThrow(expect.objectContaining({ issues: [expect.objectContaining({ pointer: '/users/1/name' })] }));
    expect(() => user.decode({ name: '', age: -1 }, { abortEarly: true })).toThrow(expect.objectContaining({ issues: [expect.objectContaining({ pointer: '/name' })] }));
  });

  it('takes its schema from Standard JSON Schema, as a components.schemas entry when named', () => {
    const body = { type: 'object', properties: { name: { type: 'string', minLength: 1 }, age: { type: 'integer', minimum: 0, maximum: 9007199254740991 } }, required: ['name'] };
    expect(user.schema).toEqual(body);
    const gen = openapi();
    expect(gen.schema(user.withName('User'))).toEqual({ $ref: '#/components/schemas/User' });
    expect(gen.definitions).toEqual({ User: body });
  });

  it('moves zod $defs into the generator and rewrites their $refs', () => {
    const id = z.string().meta({ id: 'Id' });
    const c = codec.fromStandardSchema(z.object({ a: id, b: id }));
    const gen = openapi();
    expect(gen.schema(c)).toEqual({
      type: 'object',
      properties: { a: { $ref: '#/components/schemas/Id' }, b: { $ref: '#/components/schemas/Id' } },
      required: ['a', 'b'],
    });
    expect(gen.definitions).toEqual({ Id: { type: 'string' } });
  });

  it('turns a self-reference ($ref "#") into a definition', () => {
    const Node = z.object({ name: z.string(), get children() { return z.array(Node); } });
    const c = codec.fromStandardSchema(Node).withName('Node');
    const gen = openapi();
    expect(gen.schema(c)).toEqual({ $ref: '#/components/schemas/Node' });
    const defs = gen.definitions;
    const [selfName] = Object.keys(defs).filter((k) => k !== 'Node');
    expect(defs.Node).toEqual({ $ref: `#/components/schemas/${selfName}` });
    expect(defs[selfName as string]).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: `#/components/schemas/${selfName}` } } },
      required: ['name', 'children'],
    });
    expect(c.decode({ name: 'a', children: [{ name: 'b', children: [] }] })).toEqual({ name: 'a', children: [{ name: 'b', children: [] }] });
  });

  it('encodes as the identity unless told how', () => {
    const schema = z.object({ at: z.iso.datetime().transform((s) => new Date(s)) });
    const plain = codec.fromStandardSchema(schema);
    const at = new Date('2020-01-01T00:00:00Z');
    expect(plain.decode({ at: '2020-01-01T00:00:00Z' })).toEqual({ at });
    // The identity writes the Date itself, which the schema does not read back.
    expect(plain.encode({ at })).toEqual({ at });
    expect(() => plain.validate({ at })).toThrow(codec.DecodeError);
    const told = codec.fromStandardSchema(schema, { encode: (x) => ({ at: x.at.toISOString() }) });
    expect(told.encode({ at })).toEqual({ at: '2020-01-01T00:00:00.000Z' });
    expect(() => told.validate({ at })).not.toThrow();
  });

  it('fails clearly on what a synchronous codec cannot do', () => {
    const slow = codec.fromStandardSchema(z.string().refine(async () => true));
    expect(() => slow.decode('x')).toThrow(/asynchronously/);
    const dates = codec.fromStandardSchema(z.object({ at: z.date() }));
    expect(() => dates.schema).toThrow(/cannot be written as JSON Schema; pass options.jsonSchema/);
    const given = codec.fromStandardSchema(z.object({ at: z.date() }), { jsonSchema: { type: 'object' } });
    expect(given.schema).toEqual({ type: 'object' });
  });
});

describe('fromStandardSchema with valibot 1', () => {
  const schema = v.object({ name: v.pipe(v.string(), v.minLength(2)), tags: v.array(v.string()) });

  it('needs a JSON Schema: from @valibot/to-json-schema, or as an option', () => {
    expect(() => codec.fromStandardSchema(schema)).toThrow(/pass options.jsonSchema/);
    const viaOption = codec.fromStandardSchema(schema, { jsonSchema: () => toJsonSchema(schema) as codec.JsonSchema });
    const viaStandard = codec.fromStandardSchema(toStandardJsonSchema(schema));
    const expected = { type: 'object', properties: { name: { type: 'string', minLength: 2 }, tags: { type: 'array', items: { type: 'string' } } }, required: ['name', 'tags'] };
    expect(viaOption.schema).toEqual(expected);
    expect(viaStandard.schema).toEqual(expected);
  });

  it('maps valibot issues (object path segments, type names)', () => {
    const c = codec.fromStandardSchema(toStandardJsonSchema(schema));
    expect(c.decode({ name: 'ab', tags: [] })).toEqual({ name: 'ab', tags: [] });
    let err: codec.DecodeError | undefined;
    try {
      c.decode({ name: 'a', tags: ['x', 1] });
    } catch (e) {
      err = e as codec.DecodeError;
    }
    expect(err?.issues.map((i) => [i.path, i.constraint, i.value])).toEqual([
      [['name'], 'min_length', 'a'],
      [['tags', 1], 'string', 1],
    ]);
  });
});

describe('fromStandardSchema with arktype 2', () => {
  it('decodes and takes its Standard JSON Schema', () => {
    const c = codec.fromStandardSchema(type({ name: 'string > 0', 'n?': 'number.integer' }));
    expect(c.decode({ name: 'a', n: 2 })).toEqual({ name: 'a', n: 2 });
    expect(() => c.decode({ name: '', n: 1.5 })).toThrow(expect.objectContaining({ issues: [expect.objectContaining({ pointer: '/name', constraint: 'minLength' }), expect.objectContaining({ pointer: '/n', constraint: 'divisor' })] }));
    expect(c.schema).toEqual({ type: 'object', properties: { name: { type: 'string', minLength: 1 }, n: { type: 'integer' } }, required: ['name'] });
  });

  it('reports an issue of the value itself at the root, not at [0]', () => {
    const positive = codec.fromStandardSchema(type('number > 0'));
    expect(() => positive.decode(0)).toThrow(expect.objectContaining({ issues: [expect.objectContaining({ path: [], pointer: '', constraint: 'min' })] }));
  });
});

describe('codecs are Standard Schemas', () => {
  /** A consumer written against the spec only, as zod-, valibot- and arktype-accepting tools are. */
  function check<S extends StandardSchemaV1>(s: S, value: unknown): StandardSchemaV1.InferOutput<S> {
    const r = s['~standard'].validate(value);
    if (r instanceof Promise) throw new Error('async');
    if (r.issues) throw new Error(r.issues.map((i) => i.message).join('; '));
    return r.value;
  }

  it('validates through ~standard and offers its JSON Schema', () => {
    const c = codec.object({ id: codec.int64(), at: codec.time() });
    expect(check(c, { id: '1', at: '1970-01-01T00:00:00Z' })).toEqual({ id: 1n, at: new Date(0) });
    expect(() => check(c, { id: 1 })).toThrow(/expected integer string/);
    const std = c['~standard'];
    expect(std.vendor).toBe('@lib/codec');
    expect(std.jsonSchema.input({ target: 'draft-2020-12' })).toEqual({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...c.schema });
    expect(() => std.jsonSchema.output({ target: 'draft-07' })).toThrow(TypeError);
  });

  it('round-trips through fromStandardSchema', () => {
    const c = codec.object({ n: codec.uint8() });
    const again = codec.fromStandardSchema(c);
    expect(again.decode({ n: 1 })).toEqual({ n: 1 });
    expect(again.schema).toEqual(c.schema);
  });
});

describe('fromStandardSchema as a parameter: text on the wire, read by its JSON Schema', () => {
  const param = <S extends StandardSchemaV1>(s: S): codec.StandardSchemaCodec<StandardSchemaV1.InferOutput<S>> => codec.fromStandardSchema(s, { parameter: true });
  const issuesOf = (c: codec.Codec<unknown>, wire: unknown): unknown[] => {
    try {
      c.decode(wire);
    } catch (e) {
      return (e as codec.DecodeError).issues.map((i) => [i.pointer, i.constraint, i.value]);
    }
    return [];
  };

  it('reads numbers and booleans from their text before the schema validates, writes them as text, and leaves text to schemas of text', () => {
    const n = param(z.number().int().min(1));
    expect(n.decode('42')).toBe(42);
    expect(n.encode(42)).toBe('42');
    expect(() => n.validate(42)).not.toThrow();
    expect(issuesOf(n, '0')).toEqual([['', 'too_small', 0]]);
    expect(issuesOf(n, '1.5')).toEqual([['', 'invalid_type', 1.5]]);
    // Text that is no JSON number stays text, and the schema says what it expected.
    expect(issuesOf(n, 'abc')).toEqual([['', 'invalid_type', 'abc']]);
    expect(issuesOf(n, '9007199254740993')).toEqual([['', 'invalid_type', '9007199254740993']]);
    const flag = param(z.boolean());
    expect(flag.decode('true')).toBe(true);
    expect(flag.decode('false')).toBe(false);
    expect(flag.encode(true)).toBe('true');
    expect(issuesOf(flag, 'yes')).toEqual([['', 'invalid_type', 'yes']]);
    expect(param(type('number.integer')).decode('7')).toBe(7);
    expect(param(toStandardJsonSchema(v.pipe(v.number(), v.maxValue(9)))).decode('8')).toBe(8);
    // Not a parameter unless told: a JSON body takes no text for a number.
    expect(() => codec.fromStandardSchema(z.number()).decode('5')).toThrow(codec.DecodeError);
    // Schemas that take text get it as it is: strings, coercions, parsing schemas.
    expect(param(z.string()).decode('42')).toBe('42');
    expect(param(z.coerce.number()).decode('7')).toBe(7);
    expect(param(type('string.numeric.parse')).decode('12')).toBe(12);
    expect(param(z.enum(['a', 'b'])).decode('a')).toBe('a');
  });

  it('reads through unions, literals, nullables and $refs', () => {
    expect(param(z.union([z.literal(1), z.literal(2)])).decode('2')).toBe(2);
    expect(param(z.number().nullable()).decode('3')).toBe(3);
    expect(param(z.number().meta({ id: 'N' })).decode('4')).toBe(4);
  });

  it('reads a list item by item: a repeated query key', () => {
    const tags = param(z.array(z.number().int()).max(3));
    expect(tags.list).toBe(true);
    expect(tags.decode(['1', '2'])).toEqual([1, 2]);
    expect(tags.encode([1, 2])).toEqual(['1', '2']);
    expect(issuesOf(tags, ['1', 'x'])).toEqual([['/1', 'invalid_type', 'x']]);
    expect(issuesOf(tags, ['1', '2', '3', '4'])).toEqual([['', 'too_big', [1, 2, 3, 4]]]);
    expect(param(z.number()).list).toBe(false);
    expect(codec.fromStandardSchema(z.array(z.number())).list).toBe(false);
  });

  it('reads an object of texts property by property: a styled parameter (color[R]=100)', () => {
    const color = param(z.object({ R: z.number().int(), on: z.boolean().optional(), name: z.string().optional() }));
    expect(color.decode({ R: '100', on: 'true', name: '7' })).toEqual({ R: 100, on: true, name: '7' });
    expect(issuesOf(color, { R: 'x' })).toEqual([['/R', 'invalid_type', 'x']]);
    const counts = param(z.record(z.string(), z.number()));
    expect(counts.decode({ a: '1', b: '2.5' })).toEqual({ a: 1, b: 2.5 });
    // A key such as __proto__ is an own property of what the schema gets, never a prototype.
    const read = counts.decode(JSON.parse('{"__proto__":"3"}') as Record<string, string>);
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['3']).toBeUndefined();
  });

  it('keeps a default as its text and documents it as the value, as intString() does', () => {
    const limit = codec.defaulted(param(z.number().int().min(1)), 20);
    expect(limit.defaultWire).toBe('20');
    expect(limit.decode(undefined)).toBe(20);
    expect(limit.decode('3')).toBe(3);
    expect(openapi().parameterSchema(limit)).toEqual({ type: 'integer', minimum: 1, maximum: 9007199254740991, default: 20 });
  });
});
