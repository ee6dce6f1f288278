import type { Codec } from './codec.js';
import { DecodeError } from './decode-error.js';
import { newValue } from './new-value.js';

/** Thrown by {@link must}: a value the program itself built is invalid (a bug, not bad input). */
export class MustError extends TypeError {
  /** The issues of the invalid value. */
  readonly issues: DecodeError['issues'];
  constructor(cause: DecodeError) {
    super(`invalid value: ${cause.message}`, { cause });
    this.name = 'MustError';
    this.issues = cause.issues;
  }
}

/**
 * The panicking smart constructor, for values written in the program
 * (constants, fixtures): like {@link newValue}, but an invalid value is a programming error.
 * @throws {MustError} (a `TypeError` whose `cause` is the {@link DecodeError}) when `value` is
 * invalid, structurally (the `EncodeError`'s issues, as a `DecodeError`) or by a constraint.
 */
export function must<T>(codec: Codec<T>, value: T): T {
  try {
    return newValue(codec, value);
  } catch (err) {
    throw err instanceof DecodeError ? new MustError(err) : err;
  }
}
