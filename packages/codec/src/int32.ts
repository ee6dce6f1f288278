import { IntCodec } from './int.js';

/**
 * A signed 32-bit integer codec: a `number` from -2147483648 to 2147483647; wire value: a JSON integer;
 * schema `{ type: 'integer', format: 'int32' }`.
 * Decoding anything else gives an issue with constraint `type`.
 */
// @__NO_SIDE_EFFECTS__
export function int32(): IntCodec {
  return new IntCodec({ kind: 'int32', minimum: -2147483648, maximum: 2147483647, format: 'int32' });
}
