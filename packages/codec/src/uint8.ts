import { IntCodec } from './int.js';

/**
 * An unsigned 8-bit integer codec: a `number` from 0 to 255; wire value: a JSON integer;
 * schema `{ type: 'integer', format: 'uint8' }` (OpenAPI Format Registry).
 * Decoding anything else gives an issue with constraint `type`.
 */
// @__NO_SIDE_EFFECTS__
export function uint8(): IntCodec {
  return new IntCodec({ kind: 'uint8', minimum: 0, maximum: 255, format: 'uint8' });
}
