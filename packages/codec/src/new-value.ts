import type { Codec } from './codec.js';
import { EncodeError } from './encode-error.js';

/**
 * A smart constructor: checks `value` against `codec` (shape and every
 * constraint) and returns it normalised — `codec.decode(codec.encode(value))`, so undeclared
 * keys are stripped and defaults applied; the result is a fresh value.
 * @throws {DecodeError} listing every issue when `value` is invalid; structural issues found
 * while encoding come as a `DecodeError` too (its `cause` is the {@link EncodeError}).
 */
export function newValue<T>(codec: Codec<T>, value: T): T {
  let wire: unknown;
  try {
    wire = codec.encode(value);
  } catch (err) {
    throw err instanceof EncodeError ? err.toDecodeError() : err;
  }
  return codec.decode(wire);
}
