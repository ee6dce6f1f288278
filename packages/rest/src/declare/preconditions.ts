import { literal, object, string, untaggedUnion, type Codec } from '@lib/codec';
import { ErrorPattern } from './error-rules.js';
import { PreconditionFailedError, type Precondition } from './errors.js';

/** The body of the 412 a route with `preconditions` answers (RFC 9110 §15.5.13). */
export interface PreconditionFailed {
  /** What failed, in words: `precondition failed: If-Match does not match the current representation`. */
  error: string;
  /** The header whose condition failed. */
  precondition: Precondition;
}

let rule: ErrorPattern<PreconditionFailedError, PreconditionFailed, 412> | undefined;

/**
 * The error rule of a conditional write: `PreconditionFailedError` → 412 Precondition Failed
 * (RFC 9110 §15.5.13) with a {@link PreconditionFailed} body, named `PreconditionFailed` in the
 * document, which `client.safeCall` narrows by status:
 *
 * ```ts
 * rest.route({ method: 'PATCH', path: '/todos/{id}', …, errors: [rest.preconditionFailed()], meta: { preconditions: true } });
 * ```
 *
 * A route that declares `meta.preconditions` without it answers a failed precondition with the
 * `errorHandler`'s 412. Built once, at the first call; a client that never calls it carries none
 * of its code.
 */
export function preconditionFailed(): ErrorPattern<PreconditionFailedError, PreconditionFailed, 412> {
  if (rule === undefined) {
    const body: Codec<PreconditionFailed> = object({
      error: string(),
      precondition: untaggedUnion(literal('If-Match'), literal('If-Unmodified-Since'), literal('If-None-Match')),
    }).withName('PreconditionFailed');
    rule = new ErrorPattern(PreconditionFailedError, 412 as const, body, (e: PreconditionFailedError) => ({ error: e.message, precondition: e.precondition })).withDescription(
      "Precondition Failed: the request's If-Match, If-Unmodified-Since or If-None-Match does not hold for the current representation.",
    );
  }
  return rule;
}
