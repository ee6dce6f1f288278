import { IntCodec } from './int.js';

/**
 * A signed 8-bit integer codec: a `number` from -128 to 127; wire value: a JSON integer;
 * schema `{ type: 'integer', format: 'int8' }` (OpenAPI Format Registry).
 * Decoding anything else gives an issue with constraint `type`.
 */
// @__NO_SIDE_EFFECTS__
export function int8(): IntCodec {
  return new IntCodec({ kind: 'int8', minimum: -128, maximum: 127, format: 'int8' });
}
