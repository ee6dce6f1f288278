import * as codec from '@lib/codec';
import type * as fc from 'fast-check';
import { expectTypeOf, test } from 'vitest';
import { arbitrary, type RefusedValue } from './index.js';

test('valid values are unknown wire values; refusals are labelled', () => {
  expectTypeOf(arbitrary(codec.string())).toEqualTypeOf<fc.Arbitrary<unknown>>();
  expectTypeOf(arbitrary(codec.string(), { valid: true })).toEqualTypeOf<fc.Arbitrary<unknown>>();
  expectTypeOf(arbitrary(codec.int(), { valid: false })).toEqualTypeOf<fc.Arbitrary<RefusedValue>>();
  expectTypeOf(arbitrary(codec.object({ a: codec.int() }), { valid: false, maxDepth: 2 })).toEqualTypeOf<fc.Arbitrary<RefusedValue>>();
  const flag: boolean = Math.random() > 0.5;
  expectTypeOf(arbitrary(codec.int(), { valid: flag })).toEqualTypeOf<fc.Arbitrary<unknown> | fc.Arbitrary<RefusedValue>>();
  expectTypeOf<RefusedValue>().toEqualTypeOf<{ readonly value: unknown; readonly constraint: string; readonly pointer: string }>();
});
