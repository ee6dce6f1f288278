import { IntCodec } from './int.js';

/**
 * A non-negative integer codec: a `number` from 0 to 2^53−1 (the safe
 * part of Go's `uint`; use {@link uint64} for the full range as `bigint`); wire value: a JSON
 * integer; schema `{ type: 'integer', format: 'double-int', minimum: 0 }`.
 */
// @__NO_SIDE_EFFECTS__
export function uint(): IntCodec {
  return new IntCodec({ kind: 'uint', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, format: 'double-int' });
}
