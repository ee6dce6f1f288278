import { DecodeError, formatPath, type Codec } from '@lib/codec';
import { BodyLimitError, type Format } from '@lib/format';
import { BodyTooLargeError, RequestBodyError, RequestValidationError } from '../../declare/errors.js';
import type { Observer } from '../../declare/options.js';
import { observeSafely } from './observe.js';
import { paramMerger } from './parameters.js';
import type { Exchange, RoutePlan, Step, StreamedBody } from './stage.js';

/** A body the format or codec refused: the error, kept for the 400 that names every failure. */
export class BodyRefused {
  constructor(readonly error: RequestBodyError) {}
}

/** Where a body decoder reports the issues of a body that failed: the observer and the route it is for. */
export interface BodyReport {
  readonly observer: Observer | undefined;
  readonly route: string;
}

/**
 * Decodes a request body into the request value: bytes by their format, a streamed format's
 * value as it is, and a fresh empty request (the codec's value of no body) where there is no
 * body. A body the format or codec refuses gives a {@link BodyRefused}, its issues reported;
 * a body past its limit throws `BodyTooLargeError` (413), and any other failure (a constraint
 * that throws: a server bug) is thrown as it is.
 */
export function bodyDecoder(reqCodec: Codec<unknown>, report: BodyReport): (f: Format<unknown> | undefined, body: Uint8Array | StreamedBody | undefined) => unknown {
  const { observer, route } = report;
  return (f, body) => {
    if (f === undefined || body === undefined) return reqCodec.decode(undefined);
    try {
      if (body instanceof Uint8Array) return unmarshalWithoutStacks(f, body);
      if ('error' in body) throw body.error;
      return body.value;
    } catch (err) {
      if (err instanceof BodyLimitError) throw new BodyTooLargeError(err.limit, err.message);
      if (!(err instanceof DecodeError)) throw err;
      if (observer !== undefined) observeBodyIssues(observer, route, err);
      return new BodyRefused(bodyError(err));
    }
  };
}

/**
 * Reports one validation record per issue of a body that failed to decode: `name` is the
 * issue's path (`email`, `items[0].name`), or `body` for the body as a whole (malformed JSON).
 */
function observeBodyIssues(observer: Observer, route: string, err: DecodeError): void {
  const issues = err.issues;
  if (issues.length === 0) observeSafely(() => observer.onValidationError?.({ route, location: 'body', name: 'body', error: err }));
  for (const issue of issues) {
    const name = formatPath(issue.path);
    observeSafely(() => observer.onValidationError?.({ route, location: 'body', name: name === '' ? 'body' : name, error: err }));
  }
}

/** Whether `Error.stackTraceLimit` can be set here (it cannot where intrinsics are frozen). */
const STACK_LIMIT_WRITABLE = Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit')?.writable === true;

/**
 * `f.unmarshal(bytes)` with stack traces off (`Error.stackTraceLimit = 0`). The errors a bad
 * request body causes (the codec's `DecodeError`, the `RequestBodyError` wrapping it) describe
 * the client's input, not a place in the server's code, and capturing their frames was the
 * largest cost of answering such a request with 400. A failure that is not a `DecodeError` (a
 * bug in a custom codec) must keep its frames: the body is then decoded again with stack traces
 * on and that error is thrown. Decoding is deterministic for the same bytes (the codec itself
 * decodes invalid input twice: compiled, then interpreted for the issues).
 */
function unmarshalWithoutStacks(f: Format<unknown>, bytes: Uint8Array): unknown {
  if (!STACK_LIMIT_WRITABLE) return f.unmarshal(bytes);
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return f.unmarshal(bytes);
  } catch (err) {
    if (err instanceof DecodeError) throw err;
  } finally {
    Error.stackTraceLimit = limit;
  }
  return f.unmarshal(bytes);
}

/** An error made without stack frames: one that describes the client's input, not a place in the server's code. */
function withoutStacks<E>(make: () => E): E {
  if (!STACK_LIMIT_WRITABLE) return make();
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** The 400 error of a body that did not decode: a `DecodeError`'s wrapper without stack frames, as the `DecodeError` itself. */
function bodyError(err: DecodeError): RequestBodyError {
  return withoutStacks(() => new RequestBodyError(err));
}

/** The one error of a request's validation failures, without stack frames, like its members. */
export function validationError(failures: readonly Error[]): RequestValidationError {
  return withoutStacks(() => new RequestValidationError(failures));
}

/**
 * The body stage (400), on every route: the request value its body decodes to (or the codec's
 * value of no body); then every failure of the parameters and the body is refused with one
 * `RequestValidationError` — a rule on it answers them all, and a rule on a member's class
 * (`QueryParamError`…) still matches through it; else the parameters are merged into the value.
 */
export function compileBody(plan: RoutePlan): Step {
  const decode = bodyDecoder(plan.route.reqCodec as Codec<unknown>, { observer: plan.observer, route: plan.route.id });
  const merge = paramMerger(plan.params);
  const optional = plan.bodyOptional;
  return {
    run(ex: Exchange): void {
      // An optional body sent empty (a Content-Type, no content) is no body.
      const empty = optional && ex.body instanceof Uint8Array && ex.body.byteLength === 0;
      const value = empty ? decode(undefined, undefined) : decode(ex.reqFormat, ex.body);
      if (value instanceof BodyRefused) (ex.invalid ??= []).push(value.error);
      if (ex.invalid !== undefined) throw validationError(ex.invalid);
      ex.value = merge(value, ex.decoded);
    },
  };
}
