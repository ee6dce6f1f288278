import type { Codec } from './codec.js';

/**
 * A smart constructor (SPEC.md `codec.New`): checks `value` against `codec` (shape and every
 * constraint) and returns it normalised — `codec.decode(codec.encode(value))`, so undeclared
 * keys are stripped and defaults applied; the result is a fresh value.
 * @throws {DecodeError} listing every issue when `value` is invalid.
 */
export function newValue<T>(codec: Codec<T>, value: T): T {
  return codec.decode(codec.encode(value));
}
