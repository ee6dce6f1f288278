import {
  BodyTooLargeError,
  MethodNotAllowedError,
  MiddlewareError,
  MiddlewareInputError,
  NoRouteError,
  NotAcceptableError,
  ParamError,
  PreconditionFailedError,
  RequestBodyError,
  RequestValidationError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
} from './errors.js';
import { PipelineNoResponseError } from './http-errors.js';

/** A class of errors, matched with `instanceof`. */
export type ErrorClass = abstract new (...args: never[]) => Error;

/** One of the pipeline's own refusals: its error class, the status it answers (RFC 9110 §15) and what the document says of it. */
export interface PipelineError {
  readonly error: ErrorClass;
  readonly status: number;
  readonly description: string;
}

/**
 * The pipeline's own refusals, in one table read by the pipeline (the status of an error no
 * rule maps), the document (which of them a route lists, and the words) and observers. A
 * route's or the builder's error rules (`rest.withErrors`) map any of these classes to another
 * status and body. Order matters where classes nest: the first `instanceof` match wins.
 */
export const PIPELINE_ERRORS: readonly PipelineError[] = [
  { error: RequestValidationError, status: 400, description: 'The request is invalid: a parameter or the body failed validation.' },
  { error: ParamError, status: 400, description: 'A parameter failed validation.' },
  { error: RequestBodyError, status: 400, description: 'The request body is malformed or failed validation.' },
  { error: MiddlewareError, status: 400, description: 'A middleware refused the request.' },
  { error: MiddlewareInputError, status: 400, description: "A middleware's parameters failed validation." },
  { error: UnauthorizedError, status: 401, description: 'Credentials are missing or invalid (see the WWW-Authenticate header for HTTP schemes).' },
  { error: NoRouteError, status: 404, description: 'No route has this path.' },
  { error: MethodNotAllowedError, status: 405, description: 'The path does not take this method (see the Allow header).' },
  { error: NotAcceptableError, status: 406, description: "No response media type matches the request's Accept header." },
  { error: PreconditionFailedError, status: 412, description: "Precondition Failed: the resource changed since the version the request's If-Match or If-Unmodified-Since names." },
  { error: BodyTooLargeError, status: 413, description: 'The request body is larger than the server accepts.' },
  { error: UnsupportedMediaTypeError, status: 415, description: 'The request body has an unsupported Content-Type.' },
  { error: PipelineNoResponseError, status: 503, description: 'The handler returned no response.' },
];

/** The table's entry of `err` (first `instanceof` match), or `undefined` for an error that is not the pipeline's own. */
export function pipelineError(err: unknown): PipelineError | undefined {
  for (const e of PIPELINE_ERRORS) if (err instanceof e.error) return e;
  return undefined;
}

/** The table's entry of a class (as declared, not a subclass). @throws {Error} for a class the table does not hold (a bug). */
export function pipelineErrorOf(cls: ErrorClass): PipelineError {
  const e = PIPELINE_ERRORS.find((x) => x.error === cls);
  if (e === undefined) throw new Error(`${cls.name} is not one of the pipeline's own errors`);
  return e;
}
