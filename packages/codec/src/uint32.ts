import { IntCodec } from './int.js';

/**
 * An unsigned 32-bit integer codec: a `number` from 0 to 4294967295; wire value: a JSON integer;
 * schema `{ type: 'integer', format: 'uint32' }` (OpenAPI Format Registry).
 * Decoding anything else gives an issue with constraint `type`.
 */
// @__NO_SIDE_EFFECTS__
export function uint32(): IntCodec {
  return new IntCodec({ kind: 'uint32', minimum: 0, maximum: 4294967295, format: 'uint32' });
}
