import { DecodeError, makeIssue, type Issue, type PathSegment } from './decode-error.js';

/**
 * Thrown by `Codec.encode` when a value does not have the structure of the codec: a wrong type
 * (a number where a string belongs, an Invalid Date, an array where an object belongs), a
 * non-finite number, an integer that is not safe or out of the codec's range, a required
 * object field that is `undefined` or absent, a missing or unknown tag of a tagged union, or a
 * value no alternative of an untagged union can write. Constraints added with `refine` are not
 * checked by `encode`; `Codec.validate` checks them.
 *
 * `issues` has the shape of {@link DecodeError}'s: every problem of the encode call, each with
 * its `path` from the root in wire keys and indexes (`['items', 2, 'name']`), the same path as a
 * JSON Pointer, a message, the failed check as `constraint` (`type`, `format`, `required`,
 * `const`, `discriminator`, `anyOf`) and the offending value. The message lists them as
 * `path: message; path: message` — `n: expected a finite integer, got NaN`.
 *
 * An encode failure means the program built a value its own codec cannot write (a server
 * response, a client request): a bug to log, not bad input from a caller.
 */
export class EncodeError extends Error {
  /** Every issue found, never empty. */
  readonly issues: readonly Issue[];

  /**
   * @param issues - the problems found, never empty; the message lists them.
   * @param options - `cause`, as for `Error`.
   */
  constructor(issues: readonly Issue[], options?: ErrorOptions) {
    super(DecodeError.describe(issues), options);
    this.name = 'EncodeError';
    this.issues = issues;
  }

  /** A copy of this error with every issue's path prefixed by `prefix` (`withPrefix('body')`). */
  withPrefix(...prefix: PathSegment[]): EncodeError {
    return new EncodeError(
      this.issues.map((i) => makeIssue([...prefix, ...i.path], i.message, i.constraint, i.value)),
      { cause: this.cause },
    );
  }

  /**
   * The same issues as a {@link DecodeError} whose `cause` is this error: what `Codec.validate`,
   * `newValue` and `must` throw for a value of the wrong structure.
   */
  toDecodeError(): DecodeError {
    return new DecodeError(this.issues, { cause: this });
  }
}
