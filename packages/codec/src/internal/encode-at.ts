import { describeType, type Codec } from '../codec.js';
import { DecodeError, makeIssue, type Issue, type PathSegment } from '../decode-error.js';
import { EncodeError } from '../encode-error.js';
import { withPartialWire } from './partial-wire.js';

export { partialWire, withPartialWire } from './partial-wire.js';

/**
 * How encode checks report problems. A leaf codec throws an {@link EncodeError} with one issue
 * at the root (its path is empty). A composite (object, array, record) encodes each child in a
 * `try`; on a failure it {@link collect}s the child's issues, prefixed by the child's wire key
 * or index, goes on with the next child, and at the end throws one error with every issue
 * ({@link failure}). The path of an issue is thus built only when there is an issue: the
 * success path allocates nothing beyond the wire value.
 *
 * A `DecodeError` thrown while encoding a child — `mapValidated`'s encode function failed — is
 * collected the same way. The composite's error is a `DecodeError` when every issue came from
 * such errors (so `mapValidated` keeps its documented error), and an {@link EncodeError} with
 * all issues as soon as one is structural.
 *
 * An untagged union tries its alternatives with {@link probe}: while a probe runs, a failure
 * throws {@link PROBE_FAILED} instead of an error — no message, no path, no stack trace — and
 * composites stop at the first one, so trying an alternative that does not fit costs about as
 * little as encoding one that does. Only when no alternative fits are they encoded again, outside
 * a probe, for the messages of the union's issue.
 */

/** Thrown instead of an {@link EncodeError} (or `mapValidated`'s `DecodeError`) during a {@link probe}. */
export const PROBE_FAILED: unique symbol = Symbol('probe failed');

/** How many probes are running (probes nest: unions within unions). */
let probes = 0;

/** True while a {@link probe} runs: failures need no details. */
export function isProbing(): boolean {
  return probes > 0;
}

/**
 * Encodes `value` with `codec` as a probe: returns the wire value, or {@link PROBE_FAILED} when
 * the codec cannot encode it — whatever was thrown, a user function's error included.
 */
export function probe(codec: Codec<unknown>, value: unknown): unknown {
  probes++;
  try {
    return codec.encode(value);
  } catch {
    return PROBE_FAILED;
  } finally {
    probes--;
  }
}

/** What encode checks throw: an {@link EncodeError}, or {@link PROBE_FAILED} during a probe. */
export type EncodeFailure = EncodeError | typeof PROBE_FAILED;

/** An offending value in an encode message: its type, or `NaN`, `Infinity`, `-Infinity`, `Invalid Date`. */
export function describeValue(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? 'number' : String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : 'Date';
  return describeType(value);
}

/** The failure to throw for one issue at `path` (the root by default): an {@link EncodeError}. */
export function encodeIssue(message: string, constraint: string, value: unknown, path: readonly PathSegment[] = []): EncodeFailure {
  return probes > 0 ? PROBE_FAILED : new EncodeError([makeIssue(path, message, constraint, value)]);
}

/** The failure to throw for a wrong type: `expected string, got number` (constraint `type`). */
export function mismatch(expected: string, value: unknown): EncodeFailure {
  return probes > 0 ? PROBE_FAILED : encodeIssue(`expected ${expected}, got ${describeValue(value)}`, 'type', value);
}

/** The issues of the children that failed to encode, gathered from the first failure on. */
export interface EncodeFailures {
  readonly issues: Issue[];
  /** True once an issue is structural (an {@link EncodeError}, or the composite's own issue). */
  structural: boolean;
  /** The `cause` of the first failed child, kept on the composite's error. */
  cause: unknown;
}

/**
 * Records `err`, thrown while encoding the child at `segment`, into `acc` (created on the first
 * failure) with its issue paths prefixed by `segment`. Anything other than an
 * {@link EncodeError} or a `DecodeError` is a bug of a user function and is rethrown as is, and
 * so is {@link PROBE_FAILED}: a probe stops at the first failure.
 */
export function collect(acc: EncodeFailures | undefined, err: unknown, segment: PathSegment): EncodeFailures {
  const structural = err instanceof EncodeError;
  if (!structural && !(err instanceof DecodeError)) throw err;
  const out = acc ?? { issues: [], structural: false, cause: undefined };
  for (const i of err.issues) out.issues.push(makeIssue([segment, ...i.path], i.message, i.constraint, i.value));
  if (structural) out.structural = true;
  if (out.cause === undefined) out.cause = err.cause;
  return out;
}

/**
 * Records a structural issue of the composite itself at `path` (a missing required field).
 * During a probe, throws {@link PROBE_FAILED} instead.
 */
export function addIssue(
  acc: EncodeFailures | undefined,
  path: readonly PathSegment[],
  message: string,
  constraint: string,
  value: unknown,
): EncodeFailures {
  if (probes > 0) throw PROBE_FAILED;
  const out = acc ?? { issues: [], structural: false, cause: undefined };
  out.issues.push(makeIssue(path, message, constraint, value));
  out.structural = true;
  return out;
}

/**
 * The error to throw for `acc`: an {@link EncodeError}, or a `DecodeError` when no issue is
 * structural. `partial` is the wire value the composite built, each child it could not write
 * left as it was (see {@link partialWire}).
 */
export function failure(acc: EncodeFailures, partial?: unknown): EncodeError | DecodeError {
  const options = acc.cause === undefined ? undefined : { cause: acc.cause };
  const err = acc.structural ? new EncodeError(acc.issues, options) : new DecodeError(acc.issues, options);
  return partial === undefined ? err : withPartialWire(err, partial);
}

/**
 * The first problem of a failed encode, for the message of an untagged union that no
 * alternative can write (`expected integer, got string`).
 */
export function firstProblem(err: unknown): string {
  if (err instanceof EncodeError || err instanceof DecodeError) return DecodeError.describe(err.issues.slice(0, 1));
  return err instanceof Error ? err.message : String(err);
}
