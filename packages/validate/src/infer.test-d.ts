import * as codec from '@lib/codec';
import { expectTypeOf, test } from 'vitest';
import * as validate from './index.js';

test('constraints refine the codecs they apply to, under strict TypeScript', () => {
  expectTypeOf(codec.string().refine(validate.nonEmpty)).toEqualTypeOf<codec.StringCodec>();
  expectTypeOf(codec.array(codec.int()).refine(validate.nonEmpty)).toEqualTypeOf<codec.ArrayCodec<number>>();
  codec.record(codec.int()).refine(validate.nonEmpty, validate.minProperties(1));
  codec.bytes().refine(validate.nonEmpty, validate.png, validate.maxBytes(10), validate.hasPrefix([0xff]));
  codec.string().refine(validate.hasPrefix('sk_'), validate.email, validate.oneOf('a', 'b'));
  codec.int().refine(validate.min(0), validate.max(10), validate.range(0, 5), validate.positive, validate.port, validate.oneOf(1, 2));
  codec.int64().refine(validate.min(0n), validate.positive);
  codec.array(codec.string()).refine(validate.minItems(1), validate.uniqueItems);
  codec.object({ a: codec.int() }).refine(validate.maxProperties(3));

  // @ts-expect-error: a string constraint does not apply to numbers
  codec.int().refine(validate.email);
  // @ts-expect-error: nonEmpty does not apply to numbers
  codec.int().refine(validate.nonEmpty);
  // @ts-expect-error: nonEmpty does not apply to instants
  codec.time().refine(validate.nonEmpty);
  // @ts-expect-error: numeric bounds do not apply to strings
  codec.string().refine(validate.min(1));
  // @ts-expect-error: magic bytes apply to bytes only
  codec.string().refine(validate.png);
  // @ts-expect-error: a byte prefix applies to bytes, not strings
  codec.string().refine(validate.hasPrefix([1]));
  // @ts-expect-error: port applies to numbers, not bigints
  codec.int64().refine(validate.port);
});

test('constraint infers its value type', () => {
  const even = validate.constraint({ name: 'even', test: (n: number) => n % 2 === 0, message: 'must be even' });
  expectTypeOf(even).toEqualTypeOf<codec.Constraint<number>>();
  expectTypeOf(validate.oneOf('a', 'b')).toEqualTypeOf<codec.Constraint<'a' | 'b'>>();
});
