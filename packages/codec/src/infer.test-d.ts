import { expectTypeOf, test } from 'vitest';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import * as codec from './index.js';

test('Infer over the scalar constructors', () => {
  expectTypeOf<codec.Infer<ReturnType<typeof codec.string>>>().toEqualTypeOf<string>();
  for (const c of [codec.int(), codec.int8(), codec.int16(), codec.int32(), codec.uint(), codec.uint8(), codec.uint16(), codec.uint32(), codec.number(), codec.float32(), codec.intString(), codec.duration()]) {
    expectTypeOf<codec.Infer<typeof c>>().toEqualTypeOf<number>();
  }
  expectTypeOf<codec.Infer<ReturnType<typeof codec.int64>>>().toEqualTypeOf<bigint>();
  expectTypeOf<codec.Infer<ReturnType<typeof codec.uint64>>>().toEqualTypeOf<bigint>();
  expectTypeOf<codec.Infer<ReturnType<typeof codec.boolean>>>().toEqualTypeOf<boolean>();
  expectTypeOf<codec.Infer<ReturnType<typeof codec.boolString>>>().toEqualTypeOf<boolean>();
  expectTypeOf<codec.Infer<ReturnType<typeof codec.bytes>>>().toEqualTypeOf<Uint8Array>();
  expectTypeOf<codec.Infer<ReturnType<typeof codec.time>>>().toEqualTypeOf<Date>();
  expectTypeOf<codec.Infer<ReturnType<typeof codec.date>>>().toEqualTypeOf<Date>();
  expectTypeOf<codec.Infer<ReturnType<typeof codec.any>>>().toEqualTypeOf<unknown>();
});

test('Infer over literal, constant, eq and empty', () => {
  const l = codec.literal('a');
  expectTypeOf<codec.Infer<typeof l>>().toEqualTypeOf<'a'>();
  const n = codec.literal(null);
  expectTypeOf<codec.Infer<typeof n>>().toEqualTypeOf<null>();
  const k = codec.constant({ v: 1, tags: ['x'] });
  expectTypeOf<codec.Infer<typeof k>>().toEqualTypeOf<{ readonly v: 1; readonly tags: readonly ['x'] }>();
  const e = codec.eq(codec.time(), new Date(0));
  expectTypeOf<codec.Infer<typeof e>>().toEqualTypeOf<Date>();
  expectTypeOf(codec.empty<{ id: string }>().decode(undefined)).toEqualTypeOf<{ id: string }>();
  const none = codec.empty();
  expectTypeOf<codec.Infer<typeof none>>().toEqualTypeOf<Record<string, never>>();
});

test('Infer over the composite constructors', () => {
  const user = codec.object({
    id: codec.string(),
    age: codec.optional(codec.int()),
    limit: codec.defaulted(codec.int(), 20),
    at: codec.time(),
    tags: codec.array(codec.literal('a')),
    meta: codec.record(codec.nullable(codec.boolean())),
    byId: codec.record(codec.intString(), codec.string()),
    roles: codec.record(codec.untaggedUnion(codec.literal('admin'), codec.literal('user')), codec.boolean()),
    n: codec.map(codec.intString(), (x) => BigInt(x), (b) => Number(b)),
    u: codec.mapValidated(codec.string(), (s) => new URL(s), (x) => x.href),
  });
  expectTypeOf<codec.Infer<typeof user>>().toEqualTypeOf<{
    id: string;
    limit: number;
    at: Date;
    tags: 'a'[];
    meta: Record<string, boolean | null>;
    byId: Record<number, string>;
    roles: { admin?: boolean; user?: boolean };
    n: bigint;
    u: URL;
    age?: number | undefined;
  }>();
  expectTypeOf<codec.Infer<ReturnType<typeof user.strict>>>().toEqualTypeOf<codec.Infer<typeof user>>();
  expectTypeOf<codec.Infer<ReturnType<typeof user.withWireNames>>>().toEqualTypeOf<codec.Infer<typeof user>>();
  // @ts-expect-error: wire names are given for declared fields only
  user.withWireNames({ nope: 'x' });

  const shape = codec.taggedUnion('t', { a: codec.object({ x: codec.int() }), b: codec.object({}) });
  expectTypeOf<codec.Infer<typeof shape>>().toEqualTypeOf<{ t: 'a'; x: number } | { t: 'b' }>();
  const either = codec.untaggedUnion(codec.int(), codec.string(), codec.array(codec.time()));
  expectTypeOf<codec.Infer<typeof either>>().toEqualTypeOf<number | string | Date[]>();
  const opt = codec.optional(codec.string());
  expectTypeOf<codec.Infer<typeof opt>>().toEqualTypeOf<string | undefined>();
});

test('Infer over lazy, fromStandardSchema, and the smart constructors', () => {
  interface Node {
    name: string;
    children: Node[];
  }
  const node: codec.Codec<Node> = codec.object({ name: codec.string(), children: codec.array(codec.lazy(() => node)) });
  const lazyNode = codec.lazy(() => node);
  expectTypeOf<codec.Infer<typeof lazyNode>>().toEqualTypeOf<Node>();

  const fromZod = codec.fromStandardSchema(z.object({ a: z.string(), n: z.number().optional() }));
  expectTypeOf<codec.Infer<typeof fromZod>>().toEqualTypeOf<{ a: string; n?: number | undefined }>();
  const fromValibot = codec.fromStandardSchema(v.object({ a: v.string() }), { jsonSchema: { type: 'object' } });
  expectTypeOf<codec.Infer<typeof fromValibot>>().toEqualTypeOf<{ a: string }>();
  const fromArk = codec.fromStandardSchema(type({ a: 'string' }));
  expectTypeOf<codec.Infer<typeof fromArk>>().toEqualTypeOf<{ a: string }>();
  const transformed = codec.fromStandardSchema(z.string().transform((s) => s.length), { encode: (n) => 'x'.repeat(n) });
  expectTypeOf<codec.Infer<typeof transformed>>().toEqualTypeOf<number>();

  expectTypeOf(codec.newValue(codec.int(), 1)).toEqualTypeOf<number>();
  expectTypeOf(codec.must(codec.time(), new Date())).toEqualTypeOf<Date>();
  // @ts-expect-error: the value must have the codec's type
  codec.newValue(codec.int(), 'x');
});

test('codecs are Standard Schemas of their decoded type and assignable to Codec<unknown>', () => {
  const c = codec.object({ id: codec.int64() });
  expectTypeOf<StandardSchemaV1.InferOutput<typeof c>>().toEqualTypeOf<{ id: bigint }>();
  expectTypeOf(codec.string()).toMatchTypeOf<codec.Codec<unknown>>();
  expectTypeOf(c).toMatchTypeOf<codec.AnyCodec>();
});

test('refine accepts constraints of a wider type and rejects others', () => {
  const lengthy: codec.Constraint<string | readonly unknown[]> = { name: 'nonEmpty', test: (x) => x.length > 0, message: () => 'empty' };
  const numeric: codec.Constraint<number | bigint> = { name: 'positive', test: (x) => x > 0, message: () => 'not positive' };
  codec.string().refine(lengthy);
  codec.array(codec.int()).refine(lengthy);
  codec.int().refine(numeric);
  codec.int64().refine(numeric);
  // @ts-expect-error: a length constraint does not apply to numbers
  codec.int().refine(lengthy);
  // @ts-expect-error: a numeric constraint does not apply to strings
  codec.string().refine(numeric);
});

test('InferInput: defaulted and optional fields may be left out by a caller, in nested objects too', () => {
  const todo = codec.object({
    title: codec.string(),
    done: codec.defaulted(codec.boolean(), false),
    note: codec.optional(codec.string()),
    owner: codec.object({ name: codec.string(), role: codec.defaulted(codec.literal('member'), 'member') }),
  });
  expectTypeOf<codec.InferInput<typeof todo>>().toEqualTypeOf<{
    title: string;
    owner: { name: string; role?: 'member' | undefined };
    done?: boolean | undefined;
    note?: string | undefined;
  }>();
  expectTypeOf<codec.Infer<typeof todo>>().toEqualTypeOf<{
    title: string;
    done: boolean;
    owner: { name: string; role: 'member' };
    note?: string | undefined;
  }>();
  expectTypeOf<codec.InferInput<ReturnType<typeof codec.string>>>().toEqualTypeOf<string>();
  const input: codec.InferInput<typeof todo> = { title: 'a', owner: { name: 'b' } };
  void input;
  // @ts-expect-error title is required from callers too
  const missing: codec.InferInput<typeof todo> = { owner: { name: 'b' } };
  void missing;
});

test('Infer and InferInput read a Standard Schema: its output, and its input for a caller', () => {
  const zodPage = z.object({ limit: z.number().int().default(20), q: z.string().optional(), at: z.iso.datetime().transform((s) => new Date(s)) });
  expectTypeOf<codec.Infer<typeof zodPage>>().toEqualTypeOf<{ limit: number; q?: string | undefined; at: Date }>();
  expectTypeOf<codec.InferInput<typeof zodPage>>().toEqualTypeOf<{ limit?: number | undefined; q?: string | undefined; at: string }>();
  const valibotUser = v.object({ name: v.string(), age: v.optional(v.number(), 0) });
  expectTypeOf<codec.Infer<typeof valibotUser>>().toEqualTypeOf<{ name: string; age: number }>();
  expectTypeOf<codec.InferInput<typeof valibotUser>>().toEqualTypeOf<{ name: string; age?: number | undefined }>();
  const arkCount = type('string.numeric.parse');
  expectTypeOf<codec.Infer<typeof arkCount>>().toEqualTypeOf<number>();
  expectTypeOf<codec.InferInput<typeof arkCount>>().toEqualTypeOf<string>();
  // A codec keeps its own rules, though it is a Standard Schema too.
  expectTypeOf<codec.InferInput<ReturnType<typeof codec.int64>>>().toEqualTypeOf<bigint>();
});

test('ObjectOutput and ObjectInput over fields that are codecs or Standard Schemas', () => {
  const fields = { id: codec.int(), limit: z.number().default(20), q: z.string().optional(), tag: codec.optional(codec.string()) };
  expectTypeOf<codec.ObjectOutput<typeof fields>>().toEqualTypeOf<{ id: number; limit: number; q?: string | undefined; tag?: string | undefined }>();
  expectTypeOf<codec.ObjectInput<typeof fields>>().toEqualTypeOf<{ id: number; limit?: number | undefined; q?: string | undefined; tag?: string | undefined }>();
  // An input of `unknown` (a coercion's) says nothing about absence: the key stays.
  const coerced = { n: z.coerce.number() };
  expectTypeOf<codec.ObjectInput<typeof coerced>>().toEqualTypeOf<{ n: unknown }>();
  expectTypeOf<codec.ObjectOutput<typeof coerced>>().toEqualTypeOf<{ n: number }>();
  const mixed: codec.FieldShape = fields;
  void mixed;
  // @ts-expect-error: a string is neither a codec nor a Standard Schema
  const wrong: codec.FieldShape = { id: 'x' };
  void wrong;
});
