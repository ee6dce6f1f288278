import { IntCodec } from './int.js';

/**
 * A signed 16-bit integer codec: a `number` from -32768 to 32767; wire value: a JSON integer;
 * schema `{ type: 'integer', format: 'int16' }` (OpenAPI Format Registry).
 * Decoding anything else gives an issue with constraint `type`.
 */
// @__NO_SIDE_EFFECTS__
export function int16(): IntCodec {
  return new IntCodec({ kind: 'int16', minimum: -32768, maximum: 32767, format: 'int16' });
}
