import { expectTypeOf, test } from 'vitest';
import * as codec from './index.js';

test('Infer over the issue-2 constructors', () => {
  const user = codec.object({
    id: codec.string(),
    age: codec.optional(codec.int()),
    at: codec.time(),
    tags: codec.array(codec.literal('a')),
    meta: codec.record(codec.nullable(codec.boolean())),
    n: codec.map(codec.intString(), (n) => BigInt(n), (b) => Number(b)),
  });
  expectTypeOf<codec.Infer<typeof user>>().toEqualTypeOf<{
    id: string;
    at: Date;
    tags: 'a'[];
    meta: Record<string, boolean | null>;
    n: bigint;
    age?: number | undefined;
  }>();
  const u = codec.taggedUnion('t', { a: codec.object({ x: codec.int() }), b: codec.object({}) });
  expectTypeOf<codec.Infer<typeof u>>().toEqualTypeOf<{ t: 'a'; x: number } | { t: 'b' }>();
  expectTypeOf(codec.empty<{ id: string }>().decode(undefined)).toEqualTypeOf<{ id: string }>();
});
