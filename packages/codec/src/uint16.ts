import { IntCodec } from './int.js';

/**
 * An unsigned 16-bit integer codec: a `number` from 0 to 65535; wire value: a JSON integer;
 * schema `{ type: 'integer', format: 'uint16' }` (OpenAPI Format Registry).
 * Decoding anything else gives an issue with constraint `type`.
 */
// @__NO_SIDE_EFFECTS__
export function uint16(): IntCodec {
  return new IntCodec({ kind: 'uint16', minimum: 0, maximum: 65535, format: 'uint16' });
}
