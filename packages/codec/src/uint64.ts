import { BigIntCodec } from './int64.js';

/**
 * An unsigned 64-bit integer codec: `bigint` from 0 to 2^64−1 ↔ its
 * decimal text (`"18446744073709551615"`). Schema: a string `pattern` of exactly that range as
 * a body value, `{ type: 'integer', minimum: 0 }` as a parameter.
 */
// @__NO_SIDE_EFFECTS__
export function uint64(): BigIntCodec {
  return new BigIntCodec({ kind: 'uint64', minimum: 0n, maximum: 2n ** 64n - 1n });
}
